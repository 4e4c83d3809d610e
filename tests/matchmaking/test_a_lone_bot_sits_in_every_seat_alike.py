"""Fair seats in the arena: every pool draws its seat order from the players' past seats (arena.seating)."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from arena.matches import create_match
from arena.models import ArenaEntry, Match, MatchSeat, Player
from matchmaking import matchmaker
from matchmaking.entries import enter_arena
from play.engine import create_live_match
from results.batches import run_match
from tests.play.conftest import client_of

GAME = "part-du-chef"


@pytest.fixture
def owner(db: None) -> User:
    return User.objects.create_user("lone-owner")


def seat_of(match_id: int, player: Player) -> int:
    return MatchSeat.objects.get(match_id=match_id, player=player).seat


def test_a_lone_bot_at_tables_of_three_sits_in_every_seat_and_first_in_at_most_half_of_12_games(
    owner, settings
) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_BOTS = 0
    lone = Player.objects.create(name="lone", kind=Player.Kind.BOT, builtin="random", owner=owner)
    enter_arena(player_id=lone.id, game=GAME, table_size=3, entered_by=owner)
    seats = []
    for _ in range(12):
        (match_id,) = matchmaker.tick(timezone.now() + timedelta(seconds=1))
        seats.append(seat_of(match_id, lone))
        assert run_match(match_id) == "finished"
    counts = Counter(seats)
    assert set(counts) == {0, 1, 2}, seats
    assert counts[0] <= 6, seats
    # The house bots it met sat in every seat too: their games count alike.
    house = MatchSeat.objects.filter(match__kind="arena").exclude(player=lone)
    for player_id in set(house.values_list("player_id", flat=True)):
        own = Counter(house.filter(player_id=player_id).values_list("seat", flat=True))
        assert max(own.values()) - min(own.get(seat, 0) for seat in range(3)) <= 2


def test_a_bot_that_sat_first_before_is_seated_elsewhere(owner, settings) -> None:
    """The past seats come from earlier arena matches, whoever formed them."""
    settings.ARENA_HOUSE_AFTER_SECONDS_BOTS = 0
    settings.ARENA_BOT_PLACEMENT_GAMES = 0
    bot = Player.objects.create(name="first-often", kind=Player.Kind.BOT, builtin="random", owner=owner)
    greedy = Player.objects.get(name="greedy")
    # It sat first at its three earlier arena tables of two (as the old matchmaker seated a lone bot).
    for _ in range(3):
        earlier = create_match(game=GAME, kind=Match.Kind.ARENA, player_ids=[bot.id, greedy.id], dispatch=False)
        Match.objects.filter(pk=earlier.pk).update(status=Match.Status.FINISHED, finished_at=timezone.now())
    enter_arena(player_id=bot.id, game=GAME, table_size=2, entered_by=owner)
    (match_id,) = matchmaker.tick(timezone.now() + timedelta(seconds=1))
    assert seat_of(match_id, bot) == 1


def test_the_people_pool_balances_a_persons_seats_too(person: Any, settings: Any) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_PEOPLE = 0
    ann = person("ann")
    greedy = Player.objects.get(name="greedy")
    # Ann sat first at her two earlier arena tables of two.
    for _ in range(2):
        table = create_live_match(game=GAME, kind=Match.Kind.ARENA, players=[ann, greedy])
        Match.objects.filter(pk=table.pk).update(status=Match.Status.FINISHED, finished_at=timezone.now())
    response = client_of(ann).post("/api/arena/queue/", {"game": GAME, "table_size": 2}, format="json")
    assert response.status_code == 201
    (match_id,) = matchmaker.tick()
    assert seat_of(match_id, ann) == 1
    assert not ArenaEntry.objects.filter(player=ann, active=True).exists()
