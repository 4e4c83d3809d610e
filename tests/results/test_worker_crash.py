"""A worker killed with kill -9 in the middle of a match leaves no trace, and the match finishes on retry."""

from __future__ import annotations

import pytest
from django.utils import timezone

from arena import runner
from arena.matches import create_match
from arena.models import Match
from arena.sweeper import sweep_stuck_matches
from ratings.ledger import verify_ratings
from ratings.models import Rating, RatingChange
from tests.support import wait_until


def _status(match_id: int) -> str:
    return Match.objects.values_list("status", flat=True).get(pk=match_id)


@pytest.mark.system
def test_a_worker_killed_mid_match_leaves_nothing_half_written_and_the_retry_finishes(workers, make_bots) -> None:
    players = make_bots(3)
    match = create_match(game="part-du-chef", kind="ranked", player_ids=[p.id for p in players], seed=99)
    # The first worker plays slowly (a pause before each move) and holds short leases.
    doomed = workers.start("doomed", ARENA_BOT_MOVE_DELAY_SECONDS="0.4", ARENA_MATCH_LEASE_SECONDS="4")
    # Claimed: the worker is playing it, in memory, for some 20 decisions of 0.4 s each (nothing of the
    # game is written before its end), and within its first 4 s lease: it dies in the middle of the match.
    wait_until(lambda: _status(match.id) == "running", 60, "the worker to claim the match", workers.tail())
    workers.kill(doomed)
    assert doomed.returncode is not None

    match.refresh_from_db()
    assert (match.status, match.attempt, match.record, match.finished_at) == ("running", 1, None, None)
    assert set(match.seats.values_list("score", "rank", "rating_before", "rating_after")) == {(None, None, None, None)}
    assert not RatingChange.objects.exists()
    assert not Rating.objects.filter(games__gt=0).exists()

    # Nothing happens before the lease runs out; then the sweeper hands the match to a live worker.
    assert sweep_stuck_matches()["retried"] == 0
    workers.start("survivor")
    wait_until(
        lambda: Match.objects.filter(pk=match.id, lease_expires_at__lt=timezone.now()).exists(),
        30,
        "the lease to expire",
    )
    assert sweep_stuck_matches()["retried"] == 1
    wait_until(lambda: _status(match.id) == "finished", 90, "the retry to finish the match", workers.tail())

    match.refresh_from_db()
    assert match.attempt == 2
    # The game's record, plus the arena's documented `arena` field.
    stored = dict(match.record)
    assert stored.pop("arena")["forfeited"] == []
    assert stored == runner.play("part-du-chef", players, 99, match.options).record
    assert RatingChange.objects.filter(match=match).count() == 3
    assert sorted(Rating.objects.filter(player__in=players).values_list("games", flat=True)) == [1, 1, 1]
    seats = list(match.seats.order_by("seat"))
    assert all(seat.rating_before == 1500.0 and seat.rating_after is not None for seat in seats)
    # The ledger replays to exactly the stored ratings and deviations.
    assert set(verify_ratings("part-du-chef")) == {player.id for player in players}
