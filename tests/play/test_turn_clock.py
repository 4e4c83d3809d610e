"""The turn clock: on expiry the house plays the decision; repeated expiry makes a forfeiter."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from arena.builtin import ensure_builtin_bots
from arena.models import Match, MatchSeat, Player
from games.part_du_chef import State
from games.part_du_chef.bots import get_bot
from play.engine import create_live_match, play_turn, sweep
from play.models import LiveGame
from ratings.models import RatingChange
from tests.play.conftest import client_of, cut, post_action, take
from tests.support import wait_until


def live(match: Any) -> Any:
    return LiveGame.objects.get(pk=match.pk)


def test_a_person_to_act_has_a_deadline_one_turn_clock_away(table: Any, settings: Any) -> None:
    before = timezone.now()
    game = live(table("ann", "ben"))
    assert game.to_act == 0
    expected = before + timedelta(seconds=settings.ARENA_TURN_SECONDS)
    assert abs((game.deadline - expected).total_seconds()) < 5


def test_the_clock_task_does_nothing_before_the_deadline(table: Any) -> None:
    match = table("ann", "ben")
    assert play_turn(match.id, 0) == "not yet"
    assert live(match).turn == 0


def test_on_expiry_greedy_plays_the_decision_and_the_timeout_is_counted(table: Any) -> None:
    match = table("ann", "ben", seed=11)
    past = live(match).deadline + timedelta(seconds=1)
    assert play_turn(match.id, 0, now=past) == "played"
    game = live(match)
    assert game.turn == 1 and game.timeouts == [1, 0] and game.out == [False, False]
    # The decision is the greedy engine's for that seat.
    state = State.new(2, 11)
    assert game.record["actions"][0]["cuts"] == list(get_bot("greedy", seed=0).act(state.observation(0)).cuts)
    # Now ben is to act, with a fresh deadline.
    assert game.to_act == 1 and game.deadline > timezone.now()


def test_the_expiry_task_is_idempotent_by_turn_number(table: Any) -> None:
    match = table("ann", "ben")
    past = live(match).deadline + timedelta(seconds=1)
    assert play_turn(match.id, 0, now=past) == "played"
    assert play_turn(match.id, 0, now=past) == "stale"
    assert live(match).turn == 1 and live(match).timeouts == [1, 0]


def test_an_answer_to_a_decision_the_clock_already_took_is_refused_with_409(table: Any) -> None:
    match = table("ann", "ben")
    ann = client_of(MatchSeat.objects.get(match=match, seat=0).player)
    play_turn(match.id, 0, now=live(match).deadline + timedelta(seconds=1))
    response = post_action(ann, match.id, 0, cut([0, 6]))
    assert response.status_code == 409
    assert response.json()["detail"] == "turn 0 has already been played; the game is at turn 1"


def test_a_person_who_times_out_three_times_forfeits_and_is_ranked_below_the_others(table: Any, settings: Any) -> None:
    settings.ARENA_MAX_TIMEOUTS = 3
    match = table("ann", "ben", seed=5)
    ben = client_of(MatchSeat.objects.get(match=match, seat=1).player)
    while True:
        game = live(match)
        if game.to_act is None:
            break
        if game.to_act == 0 and not game.out[0]:
            # Ann never answers: her clock runs out.
            assert play_turn(match.id, game.turn, now=game.deadline + timedelta(seconds=1)) == "played"
        elif game.to_act == 0:
            # Once out, her seat is played by the house at once, with no deadline.
            assert game.deadline is None
            assert play_turn(match.id, game.turn) == "played"
        else:
            view = ben.get(f"/api/matches/{match.id}/state/").json()
            legal = view["legal"]
            action = cut([0, 6]) if legal["phase"] == "cut" else take(legal["portions"][0]["index"])
            assert post_action(ben, match.id, game.turn, action).status_code == 200
    game = live(match)
    assert game.timeouts[0] == 3 and game.out == [True, False]
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    seats = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    assert [seat.forfeited for seat in seats] == [True, False]
    assert [seat.forfeit_reason for seat in seats] == ["timeout: the clock ran out 3 times", ""]
    assert [seat.rank for seat in seats] == [2, 1]
    changes = {change.player_id: change for change in RatingChange.objects.filter(match=match)}
    assert len(changes) == 2
    # The forfeiter lost rating whatever the scores said.
    assert changes[seats[0].player_id].after < changes[seats[0].player_id].before
    assert changes[seats[1].player_id].after > changes[seats[1].player_id].before


def test_the_sweeper_resends_expired_clocks_and_stalled_bot_moves(
    table: Any, django_capture_on_commit_callbacks: Any
) -> None:
    waiting = table("ann", "ben")
    expired = table("cat", "dan")
    LiveGame.objects.filter(pk=expired.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    bot_table = table("bot:greedy", "eve")  # the bot cuts first
    LiveGame.objects.filter(pk=bot_table.pk).update(updated_at=timezone.now() - timedelta(seconds=60))
    with django_capture_on_commit_callbacks() as callbacks:
        assert sweep() == {"sent": 2}
    assert len(callbacks) == 2
    assert live(waiting).turn == 0


@pytest.mark.django_db(transaction=True)
def test_a_bot_seated_with_people_plays_through_a_real_worker(person: Any, workers: Any) -> None:
    ensure_builtin_bots(Player)  # a transactional test starts from an empty database
    workers.start("play-bots")
    match = create_live_match(
        game="part-du-chef",
        kind=Match.Kind.FRIENDLY,
        players=[Player.objects.get(name="search"), person("fay")],
        seed=8,
    )
    wait_until(lambda: live(match).turn >= 1, 60, "the bot's cut", workers.tail())
    game = live(match)
    assert game.record["actions"][0]["seat"] == 0 and game.to_act == 1 and game.deadline is not None
