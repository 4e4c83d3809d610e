"""At-least-once delivery, exactly-once effect: a rated match moves ratings once, however it is run."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from arena import runner
from arena.matches import create_match
from arena.models import Match
from ratings.ledger import GameResult, rate
from ratings.models import Rating, RatingChange
from results.batches import run_match
from results.commit import commit_result
from results.tasks import play_match
from tests.claims import claim_match


def _ranked(players, seed=11) -> Match:
    return create_match(game="part-du-chef", kind="ranked", player_ids=[p.id for p in players], seed=seed)


@pytest.mark.django_db
def test_running_the_same_match_task_twice_rates_once(make_bots) -> None:
    players = make_bots(3)
    match = _ranked(players)
    assert play_match.run(match.id) == "finished"
    assert play_match.run(match.id) == "not claimed"
    assert RatingChange.objects.filter(match=match).count() == 3
    assert sorted(Rating.objects.filter(player__in=players).values_list("games", flat=True)) == [1, 1, 1]
    match.refresh_from_db()
    assert match.attempt == 1
    seats = list(match.seats.order_by("seat"))
    ratings = {r.player_id: r.rating for r in Rating.objects.filter(player__in=players)}
    assert all(seat.rating_before == 1500.0 for seat in seats)
    assert [seat.rating_after for seat in seats] == [ratings[seat.player_id] for seat in seats]


@pytest.mark.django_db(transaction=True)
def test_running_the_same_match_task_twice_at_once_rates_once(make_bots) -> None:
    players = make_bots(4)
    matches = [_ranked(players, seed=seed) for seed in range(5)]
    outcomes: list[str] = []
    errors: list[BaseException] = []

    def run(match_id: int, barrier: threading.Barrier) -> None:
        try:
            barrier.wait()
            outcomes.append(run_match(match_id))
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    for match in matches:
        barrier = threading.Barrier(2)
        threads = [threading.Thread(target=run, args=(match.id, barrier)) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    assert errors == []
    assert sorted(outcomes) == ["finished"] * 5 + ["not claimed"] * 5
    assert RatingChange.objects.count() == 5 * 4
    assert sorted(Rating.objects.values_list("games", flat=True)) == [5, 5, 5, 5]
    assert set(Match.objects.values_list("status", "attempt")) == {("finished", 1)}


@pytest.mark.django_db
def test_an_attempt_that_lost_its_lease_cannot_commit(make_bots) -> None:
    players = make_bots(2)
    match = _ranked(players)
    first = claim_match(match.id)
    assert first == 1
    assert claim_match(match.id) is None  # still leased to the first attempt
    Match.objects.filter(pk=match.id).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    second = claim_match(match.id)
    assert second == 2
    played = runner.play("part-du-chef", players, match.seed, match.options)
    assert commit_result(match.id, first, played) is False
    assert not RatingChange.objects.exists()
    assert commit_result(match.id, second, played) is True
    assert commit_result(match.id, second, played) is False
    assert RatingChange.objects.filter(match=match).count() == 2


@pytest.mark.django_db
def test_the_ledger_refuses_a_second_rating_of_one_match(make_bots) -> None:
    players = make_bots(2)
    match = _ranked(players)
    run_match(match.id)
    with pytest.raises(IntegrityError), transaction.atomic():
        rate([GameResult(match=match, players=players, totals=[10, 5], forfeited=[False, False])])
    assert RatingChange.objects.filter(match=match).count() == 2


@pytest.mark.django_db
def test_a_replayed_match_gives_the_same_record(make_bots) -> None:
    players = make_bots(3)
    match = _ranked(players, seed=1234)
    run_match(match.id)
    match.refresh_from_db()
    again = runner.play("part-du-chef", players, match.seed, match.options)
    # The stored record is the game's record plus the arena's documented `arena` field.
    stored = dict(match.record)
    stored.pop("arena")
    assert again.record == stored
    assert match.record["players"] == [p.name for p in players]
    assert match.record["seed"] == 1234


@pytest.mark.django_db
def test_rating_before_chains_from_the_previous_rating_after(make_bots) -> None:
    players = make_bots(3)
    for seed in range(6):
        seats = players[seed % 3 :] + players[: seed % 3]
        run_match(_ranked(seats[: 2 + seed % 2], seed=seed).id)
    for player in players:
        rows = list(player.seats.filter(match__rated=True).order_by("match__finished_at"))
        assert len(rows) >= 3
        assert rows[0].rating_before == 1500.0
        for earlier, later in zip(rows, rows[1:], strict=False):
            assert later.rating_before == earlier.rating_after
        assert Rating.objects.get(player=player).rating == rows[-1].rating_after
