"""Four worker processes finishing 500 rated matches that share players agree with the ledger."""

from __future__ import annotations

import random

import pytest

from arena.matches import create_match
from arena.models import Match
from ratings.ledger import verify_ratings
from ratings.models import RatingChange
from tests.support import wait_until

MATCHES = 500


@pytest.mark.system
def test_four_workers_and_500_shared_matches_give_the_ratings_of_the_replayed_ledger(workers, make_bots) -> None:
    players = make_bots(12)
    rng = random.Random(2024)
    for index in range(MATCHES):
        seated = rng.sample(players, rng.randint(2, 5))
        kind = "friendly" if index % 10 == 0 else "ranked"
        create_match(game="part-du-chef", kind=kind, player_ids=[p.id for p in seated], seed=rng.randrange(2**31))
    for number in range(4):
        workers.start(f"w{number}")

    def done() -> bool:
        return not Match.objects.exclude(status__in=["finished", "failed"]).exists()

    wait_until(done, 400, "500 matches to finish", workers.tail())
    assert Match.objects.filter(status="finished").count() == MATCHES
    assert set(Match.objects.values_list("attempt", flat=True)) == {1}

    rated = Match.objects.filter(rated=True)
    assert RatingChange.objects.count() == sum(m.seats.count() for m in rated)
    replayed = verify_ratings("part-du-chef")  # ratings, games, deviations and game times, exactly
    assert sum(state.games for state in replayed.values()) == RatingChange.objects.count()

    for player in players:
        rows = list(player.seats.filter(match__rated=True).order_by("match__finished_at"))
        for earlier, later in zip(rows, rows[1:], strict=False):
            assert later.rating_before == earlier.rating_after
