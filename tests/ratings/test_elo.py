"""Multiplayer Elo: golden numbers worked out by hand from the documented formula."""

from __future__ import annotations

import doctest

import pytest

from ratings import elo
from ratings.elo import expected, k_factor, new_ratings


def test_the_documented_examples_hold() -> None:
    result = doctest.testmod(elo)
    assert result.attempted >= 10
    assert result.failed == 0


def test_k_follows_the_schedule_96_64_32() -> None:
    assert [k_factor(n) for n in (0, 1, 9)] == [96.0, 96.0, 96.0]
    assert [k_factor(n) for n in (10, 15, 19)] == [64.0, 64.0, 64.0]
    assert [k_factor(n) for n in (20, 21, 10_000)] == [32.0, 32.0, 32.0]


def test_it_refuses_a_negative_game_count() -> None:
    with pytest.raises(ValueError, match="negative"):
        k_factor(-1)


def test_two_newcomers_move_by_half_of_k() -> None:
    assert new_ratings([1500.0, 1500.0], [70, 42], [0, 0]) == [1548.0, 1452.0]


def test_two_players_with_a_rating_gap() -> None:
    # E = 1 / (1 + 10^(-200/400)) = 0.7597469266; the favourite (K=32) loses to a K=96 player.
    fav, dog = new_ratings([1700.0, 1500.0], [10, 20], [25, 3])
    assert fav == pytest.approx(1700.0 - 32 * 0.7597469266, abs=1e-6)
    assert dog == pytest.approx(1500.0 + 96 * 0.7597469266, abs=1e-6)
    assert fav == pytest.approx(1675.688098, abs=1e-6)
    assert dog == pytest.approx(1572.935705, abs=1e-6)


def test_three_newcomers_with_distinct_totals() -> None:
    # K/(N-1) = 48; S sums are 2, 1, 0 and every E sum is 1.
    assert new_ratings([1500.0] * 3, [30, 20, 10], [0, 0, 0]) == [1548.0, 1500.0, 1452.0]


def test_three_players_with_a_tie_at_the_top() -> None:
    # E(1600,1500)=0.6400649998, E(1600,1400)=0.7597469266, E(1500,1400)=0.6400649998.
    a, b, c = new_ratings([1600.0, 1500.0, 1400.0], [12, 12, 5], [3, 15, 40])
    assert a == pytest.approx(1600 + 48 * (1.5 - 0.6400649998 - 0.7597469266), abs=1e-6)
    assert b == pytest.approx(1500 + 32 * (1.5 - 0.3599350002 - 0.6400649998), abs=1e-6)
    assert c == pytest.approx(1400 + 16 * (0 - 0.2402530734 - 0.3599350002), abs=1e-6)
    assert (round(a, 3), round(b, 3), round(c, 3)) == (1604.809, 1516.0, 1390.397)


def test_everybody_tied_changes_nothing_between_equals() -> None:
    assert new_ratings([1500.0] * 4, [33, 33, 33, 33], [0, 5, 12, 30]) == [1500.0] * 4


def test_five_players_golden_numbers() -> None:
    ratings = [1500.0, 1620.0, 1380.0, 1710.0, 1450.0]
    totals = [55, 40, 40, 30, 12]
    games = [0, 9, 10, 25, 19]
    result = new_ratings(ratings, totals, games)
    assert [round(r, 4) for r in result] == [1552.7672, 1618.4278, 1402.954, 1693.3302, 1426.2556]
    # Player 0 by hand: K=96 over 4 opponents, wins all four.
    e = sum(expected(1500.0, r) for r in ratings[1:])
    assert result[0] == pytest.approx(1500.0 + 24.0 * (4 - e), abs=1e-9)


def test_nobody_drops_below_one_hundred() -> None:
    low, high = new_ratings([105.0, 300.0], [1, 9], [0, 0])
    assert low == 100.0
    assert high == pytest.approx(323.5724, abs=1e-4)


def test_a_forfeiter_ranks_below_everyone_who_did_not_forfeit() -> None:
    assert new_ratings([1500.0, 1500.0], [60, 10], [0, 0], forfeited=[True, False]) == [1452.0, 1548.0]
    # Among forfeiters the totals still decide.
    a, b, c = new_ratings([1500.0] * 3, [50, 40, 5], [0, 0, 0], forfeited=[True, True, False])
    assert (a, b, c) == (1500.0, 1452.0, 1548.0)


def test_it_uses_pre_game_ratings_for_everyone() -> None:
    forward = new_ratings([1500.0, 1600.0, 1400.0], [3, 2, 1], [0, 0, 0])
    backward = new_ratings([1400.0, 1600.0, 1500.0], [1, 2, 3], [0, 0, 0])
    assert forward == backward[::-1]


def test_it_refuses_mismatched_inputs() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        new_ratings([1500.0], [3], [0])
    with pytest.raises(ValueError, match="one entry per player"):
        new_ratings([1500.0, 1500.0], [3], [0, 0])
