"""`manage.py settle_house_ladder`: rated games between near rungs of the house ladder until every rung's
deviation is at most the settled one and the ratings are in ladder order, through the match core (rated
once, in the ledger)."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from arena.models import Match, MatchSeat, Player
from matchmaking.house import SETTLED_DEVIATION
from ratings.ledger import verify_ratings
from ratings.models import Rating

GAME = "part-du-chef"
# Cheap engines, so that a ladder settles in seconds.
LADDER = ["random", "noisy-greedy-45", "greedy"]


@pytest.fixture
def rungs(db: None, settings) -> list[Player]:
    settings.ARENA_HOUSE_LADDER = LADDER
    return [Player.objects.get(name=name, owner=None) for name in LADDER]


def settle(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("settle_house_ladder", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def pairs_played() -> dict[frozenset[str], int]:
    played: dict[frozenset[str], int] = {}
    for match in Match.objects.filter(kind=Match.Kind.RANKED).prefetch_related("seats__player"):
        names = frozenset(seat.player.name for seat in match.seats.all())
        played[names] = played.get(names, 0) + 1
    return played


def test_an_unrated_ladder_is_settled_by_games_between_near_rungs_and_a_second_run_plays_nothing(rungs) -> None:
    out, err = settle("--rounds", "60")
    assert "round 1/60: 3 games, unsettled random 1500 ± 350, noisy-greedy-45 1500 ± 350, greedy 1500 ± 350" in out
    assert "the house ladder is settled" in out and err == ""
    for rung in rungs:
        assert Rating.objects.get(player=rung, game=GAME).deviation <= SETTLED_DEVIATION
    ratings = [Rating.objects.get(player=rung, game=GAME).rating for rung in rungs]
    assert ratings == sorted(ratings)  # in ladder order, by strength
    matches = Match.objects.filter(game=GAME)
    assert matches.count() == matches.filter(kind=Match.Kind.RANKED, status=Match.Status.FINISHED, rated=True).count()
    played = pairs_played()
    # Rungs one and two steps apart: every pair of this short ladder.
    assert set(played) == {frozenset(LADDER[:2]), frozenset(LADDER[1:]), frozenset(LADDER[::2])}
    # Each pair takes the first seat in turns.
    for names in played:
        first = [
            MatchSeat.objects.filter(seat=0, player__name=name, match__seats__player__name=other).count()
            for name, other in [sorted(names), sorted(names, reverse=True)]
        ]
        assert abs(first[0] - first[1]) <= 1
    # Rated once each, as the ledger replays them.
    assert set(verify_ratings(GAME)) == {rung.id for rung in rungs}

    matches = Match.objects.count()
    before = list(Rating.objects.filter(game=GAME).order_by("player_id").values_list("rating", "deviation"))
    out, _ = settle("--rounds", "60")
    assert "after 0 games" in out and "round 1" not in out
    assert Match.objects.count() == matches
    assert list(Rating.objects.filter(game=GAME).order_by("player_id").values_list("rating", "deviation")) == before


def test_the_round_bound_stops_it_and_says_which_rungs_are_still_unsettled(rungs) -> None:
    out, err = settle("--rounds", "2")
    assert [line.split(":")[0] for line in out.splitlines()] == ["round 1/2", "round 2/2"]
    assert "stopped at the bound of 2 rounds (6 games" in err and "random" in err
    assert Match.objects.filter(kind=Match.Kind.RANKED, status=Match.Status.FINISHED).count() == 6
    assert any(row.deviation > SETTLED_DEVIATION for row in Rating.objects.filter(game=GAME))


def test_only_an_unsettled_rung_plays_and_only_against_the_rungs_near_it(settings, rungs) -> None:
    settings.ARENA_HOUSE_LADDER = [*LADDER, "search"]
    rungs = [*rungs, Player.objects.get(name="search", owner=None)]
    # Settled rungs in order, but random idle for a year: its deviation has grown back above the settled one.
    now = timezone.now()
    idle = [now - timedelta(days=365), now, now, now]
    for rung, rating, rated_at in zip(rungs, [1100, 1400, 1700, 1900], idle, strict=True):
        Rating.objects.create(
            player=rung, game=GAME, kind="bot", rating=rating, deviation=30.0, games=100, rated_at=rated_at
        )
    out, _ = settle("--rounds", "1")
    assert "unsettled random 1100 ± 193" in out and "noisy-greedy-45" not in out.splitlines()[0]
    # One and two steps up; search, three steps away, is left alone.
    assert pairs_played() == {frozenset(LADDER[:2]): 1, frozenset(LADDER[::2]): 1}


def test_sure_ratings_out_of_ladder_order_are_not_settled(rungs) -> None:
    now = timezone.now()
    for rung, rating in zip(rungs, [1700.0, 1500.0, 1300.0], strict=True):
        Rating.objects.create(
            player=rung, game=GAME, kind="bot", rating=rating, deviation=30.0, games=100, rated_at=now
        )
    out, err = settle("--rounds", "1")
    assert "round 1/1: 3 games, unsettled random 1700 ± 30, noisy-greedy-45 1500 ± 30, greedy 1300 ± 30" in out
    assert "out of ladder order" in err


def test_an_unknown_game_or_an_empty_ladder_is_refused(rungs, settings) -> None:
    with pytest.raises(CommandError, match="--game chess"):
        settle("--game", "chess")
    settings.ARENA_HOUSE_LADDER = []
    with pytest.raises(CommandError, match="house ladder .* is empty"):
        settle()
    settings.ARENA_HOUSE_LADDER = ["greedy"]
    with pytest.raises(CommandError, match="settling takes two at least"):
        settle()
    assert not Match.objects.exists()
