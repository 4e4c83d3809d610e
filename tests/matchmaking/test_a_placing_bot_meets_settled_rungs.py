"""A placing bot's rungs are chosen among the settled ones (current deviation at most SETTLED_DEVIATION)
when they can fill its table: an unrated, or long idle, rung's rating may be a step or more off."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from arena.models import Player
from matchmaking.house import SETTLED_DEVIATION
from ratings.models import Rating
from tests.matchmaking.test_a_placing_bot_meets_the_rungs_nearest_it import newcomer, play_one_table

GAME = "part-du-chef"
LOWEST, STEP = 1000.0, 100.0


@pytest.fixture
def rungs(db: None, settings) -> list[Player]:
    """The default house ladder's players at LOWEST + STEP * i by ladder order, all settled."""
    players = [Player.objects.get(name=name, owner=None) for name in settings.ARENA_HOUSE_LADDER]
    assert len(players) >= 8
    for i, player in enumerate(players):
        Rating.objects.create(player=player, game=GAME, kind="bot", rating=LOWEST + STEP * i, games=500, deviation=30.0)
    return players


def unsettle(rung: Player, deviation: float = 2 * SETTLED_DEVIATION) -> None:
    Rating.objects.filter(player=rung, game=GAME).update(deviation=deviation)


def test_an_unsettled_rung_nearest_the_bot_gives_way_to_the_nearest_settled_one_on_its_side(rungs) -> None:
    # R = 1360: 1300 and 1400 would be met; 1300 is unsettled, so 1200 is the rung below.
    unsettle(rungs[3])
    house = play_one_table(newcomer(3, rating=1360.0, deviation=250.0), timezone.now())
    assert {bot.id for bot in house} == {rungs[2].id, rungs[4].id}


def test_an_unrated_rung_is_unsettled(rungs) -> None:
    # Its rating row gone, as for a rung just added to the ladder: it counts as 1500 ± 350, nearest
    # above R = 1460 by that guess; the settled rung above it is 1600.
    Rating.objects.filter(player=rungs[5]).delete()
    house = play_one_table(newcomer(3, rating=1460.0, deviation=200.0), timezone.now())
    assert {bot.id for bot in house} == {rungs[4].id, rungs[6].id}


def test_a_rung_idle_long_enough_is_unsettled_again(rungs) -> None:
    # Settled at 30, idle a year: sqrt(30² + 10² x 365) = 193.
    now = timezone.now()
    Rating.objects.filter(player=rungs[3], game=GAME).update(rated_at=now - timedelta(days=365))
    house = play_one_table(newcomer(3, rating=1360.0, deviation=250.0), now)
    assert {bot.id for bot in house} == {rungs[2].id, rungs[4].id}


def test_when_too_few_rungs_are_settled_they_are_chosen_among_them_all(rungs) -> None:
    # One settled rung for a table with two house seats: the usual choice, unsettled rungs too.
    for rung in rungs:
        if rung != rungs[6]:
            unsettle(rung)
    house = play_one_table(newcomer(3, rating=1360.0, deviation=250.0), timezone.now())
    assert {bot.id for bot in house} == {rungs[3].id, rungs[4].id}


def test_a_placed_bot_still_meets_an_unsettled_rung_which_is_how_it_gets_its_games(rungs, settings) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_BOTS = 0
    unsettle(rungs[3])
    # Placed long ago, R = 1310: the rung nearest it (1300) first, settled or not.
    (bot,) = play_one_table(newcomer(2, rating=1310.0, deviation=30.0, games=40), timezone.now())
    assert bot.id == rungs[3].id
