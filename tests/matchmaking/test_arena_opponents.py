"""Who a bot meets in the arena: never a bot of its own owner, the least met opponents first."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from arena.matches import create_match
from arena.models import Match, Player
from matchmaking import matchmaker
from matchmaking.entries import enter_arena
from matchmaking.meetings import count_meetings
from results.batches import run_match

GAME = "part-du-chef"


@pytest.fixture
def accounts(db: None) -> list[User]:
    return [User.objects.create_user(name) for name in ("ann", "ben", "cat")]


def bot(owner: User, name: str) -> Player:
    return Player.objects.create(name=name, kind=Player.Kind.BOT, builtin="random", owner=owner)


def test_two_bots_of_one_owner_are_never_seated_together_even_alone_in_the_arena(accounts, settings) -> None:
    settings.ARENA_HOUSE_LADDER = []  # only the owner rule decides here
    ann = accounts[0]
    first, second = bot(ann, "ann-1"), bot(ann, "ann-2")
    for player in (first, second):
        enter_arena(player_id=player.id, game=GAME, table_size=2, entered_by=ann)
    assert matchmaker.tick(timezone.now() + timedelta(hours=1)) == []


def test_over_twenty_arena_games_no_rated_table_holds_two_bots_of_one_owner(accounts, settings) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_BOTS = 0
    settings.ARENA_BOT_PLACEMENT_GAMES = 0  # tables of these bots together, with house bots where one waits
    settings.ARENA_WINDOW_BASE = 5000.0
    bots = [bot(owner, f"{owner.username}-{i}") for owner in accounts for i in range(2)]
    for player in bots:
        enter_arena(player_id=player.id, game=GAME, table_size=3, entered_by=player.owner)
    played = 0
    while played < 20:
        created = matchmaker.tick(timezone.now() + timedelta(seconds=1))
        assert created, "the arena formed no table"
        for match_id in created:
            assert run_match(match_id) == "finished"
        played += len(created)
    for match in Match.objects.filter(kind="arena", rated=True).prefetch_related("seats__player"):
        owners = [seat.player.owner_id for seat in match.seats.all() if seat.player.owner_id is not None]
        assert len(owners) == len(set(owners)), f"match {match.id} seats two bots of one owner"


def test_the_least_met_opponent_in_the_window_is_preferred(accounts, settings) -> None:
    settings.ARENA_HOUSE_LADDER = []
    settings.ARENA_WINDOW_BASE = 5000.0
    ann, ben, cat = (bot(owner, owner.username) for owner in accounts)
    dan = bot(User.objects.create_user("dan"), "dan")
    # ann has met ben twice and cat once, dan never.
    for others in ([ben], [ben], [cat]):
        create_match(game=GAME, kind=Match.Kind.ARENA, player_ids=[ann.id, *(p.id for p in others)])
    assert count_meetings([ann.id], [ben.id, cat.id, dan.id]) == {
        (min(ann.id, ben.id), max(ann.id, ben.id)): 2,
        (min(ann.id, cat.id), max(ann.id, cat.id)): 1,
    }
    enter_arena(player_id=ann.id, game=GAME, table_size=2, entered_by=ann.owner)
    for player in (ben, cat, dan):
        enter_arena(player_id=player.id, game=GAME, table_size=2, entered_by=player.owner)
    created = matchmaker.tick()
    tables = [sorted(Match.objects.get(pk=m).seats.values_list("player_id", flat=True)) for m in created]
    assert sorted([ann.id, dan.id]) in tables
    assert Counter(len(t) for t in tables) == Counter({2: 2})
