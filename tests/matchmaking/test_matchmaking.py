"""The arena matchmaker: close ratings first, a window that widens with waiting, no repeat tables, rotated seats."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from arena.models import ArenaEntry, Match
from matchmaking import matchmaker
from matchmaking.entries import enter_arena, leave_arena
from ratings.models import Rating
from results.batches import run_match

GAME = "part-du-chef"


@pytest.fixture
def staff(db: None) -> User:
    return User.objects.create_user("arena-admin", password="pw-admin-123", is_staff=True)


def _enter(staff: User, players, size: int, rating_of: dict[int, float] | None = None) -> list[ArenaEntry]:
    entries = []
    for player in players:
        if rating_of and player.id in rating_of:
            Rating.objects.create(player=player, game=GAME, kind=player.kind, rating=rating_of[player.id])
        entries.append(enter_arena(player_id=player.id, game=GAME, table_size=size, entered_by=staff))
    return entries


def _tables(match_ids: list[int]) -> list[list[int]]:
    return [list(Match.objects.get(pk=m).seats.order_by("seat").values_list("player_id", flat=True)) for m in match_ids]


def test_it_seats_players_close_in_rating_together(staff, make_bots) -> None:
    a, b, c, d = make_bots(4)
    _enter(staff, [a, b, c, d], 2, {a.id: 1500.0, b.id: 1900.0, c.id: 1520.0, d.id: 1880.0})
    created = matchmaker.tick()
    assert sorted(sorted(t) for t in _tables(created)) == sorted([sorted([a.id, c.id]), sorted([b.id, d.id])])
    assert all(Match.objects.get(pk=m).kind == "arena" and Match.objects.get(pk=m).rated for m in created)


def test_the_rating_window_widens_with_waiting_time(staff, make_bots, settings) -> None:
    settings.ARENA_WINDOW_BASE = 100.0
    settings.ARENA_WINDOW_PER_SECOND = 10.0
    low, high = make_bots(2)
    _enter(staff, [low, high], 2, {low.id: 1400.0, high.id: 1700.0})
    now = timezone.now()
    assert matchmaker.tick(now) == []  # 300 apart, window 100
    assert matchmaker.tick(now + timedelta(seconds=15)) == []  # window 250
    created = matchmaker.tick(now + timedelta(seconds=21))  # window 310
    assert len(created) == 1


def test_a_player_sits_at_one_arena_table_at_a_time(staff, make_bots) -> None:
    players = make_bots(3)
    _enter(staff, players, 2)
    assert len(matchmaker.tick()) == 1
    assert matchmaker.tick() == []  # the third player waits alone; the others are playing


def test_it_never_forms_the_same_table_twice_in_a_row(staff, make_bots, settings) -> None:
    settings.ARENA_WINDOW_BASE = 5000.0  # ratings drift apart; here only the table rule matters
    players = make_bots(3)
    _enter(staff, players, 2)
    seen = []
    for _ in range(9):
        created = matchmaker.tick()
        assert len(created) == 1
        seen.append(sorted(_tables(created)[0]))
        run_match(created[0])
    for player in players:
        own = [table for table in seen if player.id in table]
        assert all(x != y for x, y in zip(own, own[1:], strict=False))
    assert Match.objects.filter(kind="arena", status="finished").count() == 9
    assert set(Rating.objects.values_list("games", flat=True)) == {6}


def test_a_table_of_only_possible_players_waits_rather_than_repeat(staff, make_bots) -> None:
    players = make_bots(3)
    _enter(staff, players, 3)
    first = matchmaker.tick()
    run_match(first[0])
    assert matchmaker.tick() == []


def test_seats_rotate_from_one_table_to_the_next(staff, make_bots, settings) -> None:
    settings.ARENA_WINDOW_BASE = 5000.0
    players = make_bots(4)
    _enter(staff, players, 3)
    first_seats: dict[int, list[int]] = {p.id: [] for p in players}
    for _ in range(8):
        created = matchmaker.tick()
        assert len(created) == 1
        for seat, player_id in enumerate(_tables(created)[0]):
            first_seats[player_id].append(seat)
        run_match(created[0])
    assert all(len(set(seats)) >= 2 for seats in first_seats.values())


def test_leaving_the_arena_stops_new_tables(staff, make_bots) -> None:
    a, b = make_bots(2)
    entry, _ = _enter(staff, [a, b], 2)
    leave_arena(entry)
    assert matchmaker.tick() == []
