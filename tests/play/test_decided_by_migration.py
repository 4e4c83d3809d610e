"""Migrating LiveGame.stand_in (a bool per action) to decided_by names the cause of each past stand-in
move exactly: the clock's moves until a person's seat went out, a bot's forfeit, then the seat's leaving."""

from __future__ import annotations

from importlib import import_module

causes = import_module("play.migrations.0005_live_game_decided_by").causes


def test_a_persons_stand_in_moves_are_the_clocks_until_the_seat_went_out_then_its_leaving() -> None:
    # Seat 0 a person who timed out twice and was then out; seat 1 plays its own moves.
    stand_in = [True, False, True, False, True, True]
    seats = [0, 1, 0, 1, 0, 0]
    assert causes(stand_in, seats, {0, 1}, [2, 0]) == ["clock", "seat", "clock", "seat", "left", "left"]


def test_a_person_who_resigned_without_a_timeout_left() -> None:
    assert causes([False, True, True], [0, 1, 1], {0, 1}, [0, 0]) == ["seat", "left", "left"]


def test_a_bots_first_stand_in_move_is_its_forfeit_and_the_later_ones_its_seat_left() -> None:
    assert causes([False, True, False, True], [1, 1, 0, 1], {0}, [0, 0]) == ["seat", "forfeit", "seat", "left"]
