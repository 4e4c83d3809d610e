"""An entry's wait is explained by running the matchmaker's own decision, so the two never disagree."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from arena.models import ArenaEntry, MatchSeat, Player
from matchmaking import matchmaker
from matchmaking.entries import enter_arena
from matchmaking.status import explain
from ratings.models import Rating

GAME = "part-du-chef"


def bot(name: str, rating: float, games: int = 40, owner: User | None = None) -> Player:
    owner = owner or User.objects.create_user(f"owner-of-{name}")
    player = Player.objects.create(name=name, kind=Player.Kind.BOT, builtin="random", owner=owner)
    Rating.objects.create(player=player, game=GAME, kind="bot", rating=rating, games=games)
    enter_arena(player_id=player.id, game=GAME, table_size=3, entered_by=owner)
    return player


@pytest.mark.django_db
@pytest.mark.parametrize("later", [0, 5, 12, 40])
def test_the_entries_told_they_are_seated_next_are_exactly_those_the_tick_seats(settings, later) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_BOTS = 10
    settings.ARENA_WINDOW_BASE = 100.0
    settings.ARENA_WINDOW_PER_SECOND = 10.0
    twins = User.objects.create_user("twins")
    bot("newcomer", 1500.0, games=2)  # placing: the ladder at once
    bot("near-a", 1500.0)
    bot("near-b", 1550.0)
    bot("near-c", 1580.0)  # with a and b, a full table
    bot("far", 1900.0)  # house bots after the patience
    bot("twin-1", 1200.0, owner=twins)
    bot("twin-2", 1210.0, owner=twins)  # never together; each gets house bots after the patience
    now = timezone.now() + timedelta(seconds=later)
    entries = list(ArenaEntry.objects.select_related("player", "current_match"))
    waits = explain(entries, now)
    told = {
        entry.player.name for entry in entries if waits[entry.id]["reason"].endswith("at the next matchmaking tick")
    }
    seated = set(
        MatchSeat.objects.filter(match_id__in=matchmaker.tick(now), player__owner__isnull=False).values_list(
            "player__name", flat=True
        )
    )
    assert told == seated
    assert {"newcomer", "near-a", "near-b", "near-c"} <= seated
    assert ("far" in seated) == (later >= 10)


@pytest.mark.django_db
def test_the_expected_wait_is_when_the_decision_would_first_seat_the_entry(settings) -> None:
    settings.ARENA_HOUSE_LADDER = []
    settings.ARENA_WINDOW_BASE = 100.0
    settings.ARENA_WINDOW_PER_SECOND = 10.0
    settings.ARENA_MATCHMAKING_SECONDS = 2.0
    low, high = bot("low", 1400.0), bot("high", 1700.0)
    for player in (low, high):
        ArenaEntry.objects.filter(player=player).update(table_size=2)
    now = timezone.now()
    entries = list(ArenaEntry.objects.select_related("player", "current_match"))
    waits = explain(entries, now)
    expected = waits[entries[0].id]["expected_seconds"]
    assert expected is not None and 20.0 <= expected <= 22.0  # 300 apart: the window reaches 300 after 20 s
    assert matchmaker.tick(now + timedelta(seconds=expected - 2.0 - 0.5)) == []
    assert len(matchmaker.tick(now + timedelta(seconds=expected - 2.0 + 0.5))) == 1
