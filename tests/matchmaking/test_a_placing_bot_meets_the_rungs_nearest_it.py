"""Placement: a bot still placing meets the house rung rated nearest below its rating and the nearest above,
then the next nearest, following its rating as it moves; a placed bot meets the least met first."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from arena.models import Match, MatchSeat, Player
from matchmaking import matchmaker
from matchmaking.entries import enter_arena
from ratings.models import Rating

GAME = "part-du-chef"
# The ladder's rungs are rated 1000, 1100, ... in ladder order, so every distance below is exact.
LOWEST, STEP = 1000.0, 100.0


@pytest.fixture
def rungs(db: None, settings) -> list[Player]:
    """The default house ladder's players, settled at LOWEST + STEP * i by ladder order."""
    players = [Player.objects.get(name=name, owner=None) for name in settings.ARENA_HOUSE_LADDER]
    assert len(players) >= 8, "the default ladder has a rung every 100 to 150 Elo from random up"
    for i, player in enumerate(players):
        Rating.objects.create(player=player, game=GAME, kind="bot", rating=LOWEST + STEP * i, games=500, deviation=30.0)
    return players


def newcomer(size: int, rating: float, deviation: float, games: int = 0, **more: object) -> Player:
    owner = User.objects.create_user(f"owner-{User.objects.count()}")
    player = Player.objects.create(name=f"newcomer-{owner.id}", kind=Player.Kind.BOT, builtin="random", owner=owner)
    Rating.objects.create(player=player, game=GAME, kind="bot", rating=rating, deviation=deviation, games=games, **more)
    enter_arena(player_id=player.id, game=GAME, table_size=size, entered_by=owner)
    return player


def play_one_table(player: Player, now: datetime) -> list[Player]:
    """The house bots the next tick seats with `player`; its match is then marked finished (unrated:
    the ratings stay as each test set them) so that the player waits again."""
    (match_id,) = matchmaker.tick(now)
    house = [
        seat.player
        for seat in MatchSeat.objects.filter(match_id=match_id).select_related("player").order_by("player_id")
        if seat.player_id != player.id
    ]
    Match.objects.filter(pk=match_id).update(status=Match.Status.FINISHED, finished_at=now)
    return house


def test_a_placing_bot_is_seated_with_the_rungs_nearest_below_and_above_its_rating(rungs) -> None:
    # R = 1320: 1300 is nearest below, 1400 nearest above (not 1200, nearer than 1400 but on the same side).
    player = newcomer(3, rating=1320.0, deviation=350.0)
    house = play_one_table(player, timezone.now())
    assert {bot.id for bot in house} == {rungs[3].id, rungs[4].id}


def test_the_rungs_it_meets_follow_its_rating_whatever_its_deviation(rungs) -> None:
    player = newcomer(3, rating=1350.0, deviation=350.0)
    now = timezone.now()
    met = []
    for games, (rating, deviation) in enumerate([(1350.0, 350.0), (1350.0, 50.0), (1650.0, 200.0), (1050.0, 100.0)]):
        Rating.objects.filter(player=player, game=GAME).update(rating=rating, deviation=deviation, games=games)
        now += timedelta(seconds=1)
        met.append({bot.id for bot in play_one_table(player, now)})
    assert met == [{rungs[3].id, rungs[4].id}] * 2 + [{rungs[6].id, rungs[7].id}, {rungs[0].id, rungs[1].id}]


def test_a_third_house_seat_goes_to_the_next_nearest_rung(rungs) -> None:
    # R = 1360: 1300 below, 1400 above, then 1500 (140 away) before 1200 (160 away).
    player = newcomer(4, rating=1360.0, deviation=250.0)
    house = play_one_table(player, timezone.now())
    assert {bot.id for bot in house} == {rungs[3].id, rungs[4].id, rungs[5].id}


def test_above_the_ladders_top_the_two_highest_rungs_are_the_nearest(rungs) -> None:
    player = newcomer(3, rating=1900.0, deviation=150.0)
    house = play_one_table(player, timezone.now())
    assert {bot.id for bot in house} == {rungs[6].id, rungs[7].id}


def test_at_tables_of_two_a_placing_bot_meets_the_lower_and_the_upper_rung_in_turn(rungs) -> None:
    player = newcomer(2, rating=1350.0, deviation=250.0)
    now = timezone.now()
    met = []
    for _ in range(4):
        now += timedelta(seconds=1)
        (bot,) = play_one_table(player, now)
        met.append(bot.id)
    assert met == [rungs[3].id, rungs[4].id, rungs[3].id, rungs[4].id]


def test_at_tables_of_two_the_side_it_has_met_less_comes_next(rungs) -> None:
    player = newcomer(2, rating=1350.0, deviation=250.0)
    now = timezone.now()
    (first,) = play_one_table(player, now)
    assert first.id == rungs[3].id  # below it, at 1300
    # It won and rose to 1450: 1400 is now nearest and below it, but it has met only rungs below it.
    Rating.objects.filter(player=player, game=GAME).update(rating=1450.0, games=1)
    (second,) = play_one_table(player, now + timedelta(seconds=1))
    assert second.id == rungs[5].id  # above it, at 1500


def test_a_placed_bot_meets_the_rungs_it_has_met_least_first_then_the_nearest(rungs, settings) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_BOTS = 0
    # Placed long ago, R = 1310: the fourth rung (1300) first, then the unmet nearest, 1400 and 1200.
    player = newcomer(2, rating=1310.0, deviation=30.0, games=40)
    now = timezone.now()
    met = []
    for _ in range(3):
        now += timedelta(seconds=1)
        (bot,) = play_one_table(player, now)
        met.append(bot.id)
    assert met == [rungs[3].id, rungs[4].id, rungs[2].id]
