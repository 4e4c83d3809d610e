"""A play task claims, plays and commits several queued built-in bot matches at once, each rated once."""

from __future__ import annotations

import random
import threading

import pytest
import redis
from django.db import connection
from django.test.utils import CaptureQueriesContext

from arena.claims import BUILTIN_ONLY, MATCH_LEASE, give_back, work_offered
from arena.matches import create_match
from arena.models import Match, Player
from ratings.ledger import verify_ratings
from ratings.models import Rating, RatingChange
from results import batches
from results.batches import lease_size, play_queued, run_match, run_matches
from results.tasks import play_match
from tests.claims import claim_batch
from tests.support import clear_test_cache


@pytest.fixture(autouse=True)
def _no_pace_from_earlier_games() -> None:
    """A lease's size follows this process's last games (results.batches.lease_size): each test starts afresh."""
    batches._pace.clear()


def _queue(players, count: int, seed: int = 5) -> list[Match]:
    rng = random.Random(seed)
    return [
        create_match(
            game="part-du-chef",
            kind="ranked",
            player_ids=[p.id for p in rng.sample(players, rng.randint(2, min(5, len(players))))],
            seed=rng.randrange(2**31),
        )
        for _ in range(count)
    ]


def _statuses(matches) -> list[tuple[str, int]]:
    rows = dict(Match.objects.filter(pk__in=[m.id for m in matches]).values_list("pk", "status"))
    attempts = dict(Match.objects.filter(pk__in=[m.id for m in matches]).values_list("pk", "attempt"))
    return [(rows[m.id], attempts[m.id]) for m in matches]


def _ratings_follow_from_the_ledger() -> None:
    replayed = verify_ratings("part-du-chef")  # ratings, games, deviations and game times, exactly
    assert set(replayed) == set(Rating.objects.filter(game="part-du-chef").values_list("player_id", flat=True))


@pytest.mark.django_db
def test_a_task_plays_its_match_and_the_next_queued_ones_up_to_the_batch_size(make_bots, settings) -> None:
    settings.ARENA_CLAIM_BATCH = 4
    matches = _queue(make_bots(6), 6)
    assert play_match.run(matches[2].id) == "finished"
    # Its own match, then the oldest other queued ones.
    assert _statuses(matches) == [("finished", 1)] * 4 + [("queued", 0)] * 2
    assert RatingChange.objects.count() == sum(m.seats.count() for m in matches[:4])
    _ratings_follow_from_the_ledger()
    for player in Player.objects.all():
        seats = list(player.seats.filter(match__status="finished").order_by("match__finished_at"))
        for earlier, later in zip(seats, seats[1:], strict=False):
            assert later.rating_before == earlier.rating_after


@pytest.mark.django_db
def test_a_batch_takes_far_fewer_statements_per_match_than_one_match_at_a_time(make_bots, settings) -> None:
    players = make_bots(8)
    single = _queue(players, 8, seed=1)
    with CaptureQueriesContext(connection) as one_by_one:
        for match in single:
            assert run_match(match.id) == "finished"
    settings.ARENA_CLAIM_BATCH = 8
    batched = _queue(players, 8, seed=2)
    with CaptureQueriesContext(connection) as together:
        assert play_match.run(batched[0].id) == "finished"
    assert _statuses(batched) == [("finished", 1)] * 8
    assert len(together) * 2 < len(one_by_one), (len(together), len(one_by_one))
    _ratings_follow_from_the_ledger()


@pytest.mark.django_db
def test_a_match_with_a_seat_that_is_not_a_built_in_bot_is_left_to_its_own_task(make_bots, settings) -> None:
    settings.ARENA_CLAIM_BATCH = 8
    players = make_bots(3)
    first = create_match(game="part-du-chef", kind="ranked", player_ids=[players[0].id, players[1].id])
    other = create_match(game="part-du-chef", kind="ranked", player_ids=[players[1].id, players[2].id])
    # A player with no built-in engine (a submitted bot) may take minutes to play.
    Player.objects.filter(pk=players[2].pk).update(builtin="")
    assert play_match.run(first.id) == "finished"
    assert _statuses([first, other]) == [("finished", 1), ("queued", 0)]


@pytest.mark.django_db
def test_a_match_with_a_seat_that_is_not_a_built_in_bot_takes_no_other_match_with_it(make_bots, settings) -> None:
    settings.ARENA_CLAIM_BATCH = 8
    players = make_bots(3)
    slow = create_match(game="part-du-chef", kind="ranked", player_ids=[players[0].id, players[1].id])
    quick = create_match(game="part-du-chef", kind="ranked", player_ids=[players[1].id, players[2].id])
    Player.objects.filter(pk=players[0].pk).update(builtin="")
    claimed, exhausted, _ = MATCH_LEASE.claim_and_read(slow.id, 7, BUILTIN_ONLY)
    assert (claimed, exhausted) == ([(slow.id, 1)], None)
    assert _statuses([slow, quick]) == [("running", 1), ("queued", 0)]


@pytest.mark.django_db
@pytest.mark.parametrize("setting", ["ARENA_CLAIM_BATCH_SECONDS", "ARENA_MATCH_LEASE_SECONDS"])
def test_matches_claimed_with_it_are_given_back_unplayed_once_the_batch_time_or_a_quarter_of_the_lease_is_gone(
    make_bots, settings, django_capture_on_commit_callbacks, setting
) -> None:
    settings.ARENA_CLAIM_BATCH = 4
    setattr(settings, setting, 0.0001)
    matches = _queue(make_bots(4), 4)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert run_matches(matches[0].id) == "finished"
    # Queued again with the attempt they had: nobody played the one they were claimed for.
    assert _statuses(matches) == [("finished", 1)] + [("queued", 0)] * 3
    assert (
        list(Match.objects.filter(pk__in=[m.id for m in matches[1:]]).values_list("started_at", flat=True))
        == [None] * 3
    )
    sent = [callback for callback in callbacks if getattr(callback, "__qualname__", "").startswith("send_on_commit")]
    assert sent == []  # their own messages still wait in the broker: no copies
    _ratings_follow_from_the_ledger()


@pytest.mark.django_db
def test_a_match_given_back_is_sent_again_only_if_a_task_used_up_its_message_meanwhile(
    make_bots, settings, django_capture_on_commit_callbacks
) -> None:
    matches = _queue(make_bots(4), 4)
    claimed = claim_batch(matches[0].id, 3)
    assert claimed == [(m.id, 1) for m in matches]
    # The message of matches[2] is delivered while the batch holds it: that task plays nothing.
    assert run_matches(matches[2].id, extra=0) == "not claimed"
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert give_back(claimed[1:]) == [matches[2].id]
    # Its own message, and one offer of queued work for the others (a lease's matches have no message).
    assert [getattr(callback, "__name__", "send") for callback in callbacks] == ["<lambda>", "offer_work"]
    assert _statuses(matches) == [("running", 1)] + [("queued", 0)] * 3
    assert not Match.objects.filter(unsent=True).exists()


@pytest.mark.django_db
def test_a_batch_holding_a_match_rated_already_still_commits_the_others(make_bots, settings) -> None:
    settings.ARENA_CLAIM_BATCH = 3
    matches = _queue(make_bots(4), 3)
    seat = matches[1].seats.first()
    RatingChange.objects.create(
        match=matches[1],
        player_id=seat.player_id,
        game="part-du-chef",
        before=1500.0,
        after=1500.0,
        games_before=0,
        rule=2,
    )
    assert run_matches(matches[0].id) == "finished"
    statuses = _statuses(matches)
    assert statuses[0] == ("finished", 1) and statuses[2] == ("finished", 1)
    assert statuses[1] == ("running", 1)  # its attempt could not commit; the lease brings it back
    assert RatingChange.objects.filter(match=matches[1]).count() == 1


def test_concurrent_batches_sharing_players_neither_deadlock_nor_rate_a_match_twice(
    transactional_db, make_bots, settings
) -> None:
    settings.ARENA_CLAIM_BATCH = 5
    matches = _queue(make_bots(5), 40, seed=9)
    errors: list[BaseException] = []

    def work(ids: list[int]) -> None:
        try:
            for match_id in ids:
                run_matches(match_id)
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    ids = [m.id for m in matches]
    threads = [threading.Thread(target=work, args=(ids[start::3],)) for start in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []
    assert set(_statuses(matches)) == {("finished", 1)}
    assert RatingChange.objects.count() == sum(m.seats.count() for m in matches)
    _ratings_follow_from_the_ledger()


@pytest.mark.django_db
def test_built_in_bot_matches_are_offered_as_queued_work_with_one_message_for_many(
    make_bots, settings, django_capture_on_commit_callbacks
) -> None:
    # No offer standing from an earlier test of this process; its queue may hold their messages.
    clear_test_cache()
    queue = redis.Redis.from_url(settings.REDIS_URL)
    waiting = queue.llen(settings.CELERY_TASK_DEFAULT_QUEUE)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        _queue(make_bots(5), 5)
    assert [getattr(callback, "__name__", "") for callback in callbacks] == ["offer_work"] * 5
    # One offer stands for them all: the first match's commit sent it, the others found it standing.
    assert work_offered()
    assert queue.llen(settings.CELERY_TASK_DEFAULT_QUEUE) == waiting + 1


@pytest.mark.django_db
def test_a_lease_of_queued_work_plays_the_oldest_matches_and_offers_the_rest_when_full(
    make_bots, settings, django_capture_on_commit_callbacks
) -> None:
    matches = _queue(make_bots(5), 5)
    assert play_queued(limit=3) == "finished 3"
    # The lease took the offer and, full, offered the rest of the queue to the next worker at once.
    assert work_offered()
    assert _statuses(matches) == [("finished", 1)] * 3 + [("queued", 0)] * 2
    assert play_queued(limit=3) == "finished 2"
    assert not work_offered()  # the queue ran out: the chain ends
    assert play_queued(limit=3) == "not claimed"
    assert _statuses(matches) == [("finished", 1)] * 5
    _ratings_follow_from_the_ledger()


@pytest.mark.django_db
def test_a_lease_of_queued_work_leaves_matches_with_other_seats_to_their_own_task(make_bots) -> None:
    players = make_bots(3)
    theirs = create_match(game="part-du-chef", kind="ranked", player_ids=[players[1].id, players[2].id])
    first = create_match(game="part-du-chef", kind="ranked", player_ids=[players[0].id, players[1].id])
    # A player with no built-in engine (a submitted bot) may take minutes to play.
    Player.objects.filter(pk=players[2].pk).update(builtin="")
    assert play_queued(limit=8) == "finished 1"
    assert _statuses([theirs, first]) == [("queued", 0), ("finished", 1)]


@pytest.mark.django_db
def test_a_lease_takes_no_more_matches_than_its_budget_plays_at_the_last_games_pace(make_bots, settings) -> None:
    settings.ARENA_CLAIM_BATCH_SECONDS = 1.0
    settings.ARENA_LEASE_BATCH = 32
    assert lease_size(32) == 32  # no game played yet in this process
    batches._pace["game"] = 0.5  # slow bots: two games fill the budget, a third starts at its edge
    assert lease_size(32) == 3
    matches = _queue(make_bots(5), 5)
    assert play_queued() == "finished 3"
    assert _statuses(matches) == [("finished", 1)] * 3 + [("queued", 0)] * 2
    # Fast games again: the next lease is as large as the setting allows.
    assert batches._pace["game"] < 0.5
    assert play_queued() == "finished 2"
