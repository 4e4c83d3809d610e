"""The placement benchmark's newcomers are rungs of the house ladder, its checkpoints ascending game counts, its
warm-up every table of rungs with each rung in each seat."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from bench.arena_placement import default_engines, fit, parse_checkpoints, parse_shares, warmup_tables


@pytest.mark.parametrize(
    ("ladder", "engines"),
    [
        (["random", "greedy", "search-fast", "search"], ["random", "greedy", "search-fast"]),
        (
            ["random", "noisy-greedy-75", "noisy-greedy-50", "noisy-greedy-30", "noisy-greedy-20", "greedy", "search"],
            ["random", "noisy-greedy-30", "greedy", "search-fast"],
        ),
        # No noisy-greedy-30 rung: the nearest share stands in, the one with fewer random moves on a tie.
        (["random", "noisy-greedy-50", "noisy-greedy-35", "noisy-greedy-25", "greedy"], ["random", "noisy-greedy-25"]),
    ],
)
def test_the_default_newcomers_are_random_a_middle_noisy_rung_greedy_and_search_fast(
    ladder: list[str], engines: list[str]
) -> None:
    assert default_engines(ladder)[: len(engines)] == engines


@pytest.mark.parametrize(("text", "parsed"), [("5,10,30", (5, 10, 30)), ("2", (2,)), ("10,5", None), ("0,4", None)])
def test_checkpoints_are_positive_ascending_game_counts(text: str, parsed: tuple[int, ...] | None) -> None:
    assert parse_checkpoints(text) == parsed


@pytest.mark.parametrize("size", [2, 3, 4])
def test_the_warm_up_seats_every_set_of_rungs_with_each_rung_in_each_seat_alike(size: int) -> None:
    ladder = ["random", "noisy-greedy-45", "greedy", "search-fast", "search"]
    rounds = [warmup_tables(ladder, size, number) for number in range(size)]
    for tables in rounds:
        assert all(len(table) == len(set(table)) == size for table in tables)
        assert len(set(tables)) == len(tables)
    seats = Counter((name, seat) for tables in rounds for table in tables for seat, name in enumerate(table))
    assert len(set(seats.values())) == 1
    assert {name for name, _ in seats} == set(ladder)


def test_margin_shares_are_numbers_from_zero_to_one() -> None:
    assert parse_shares("0, 0.5,1") == (0.0, 0.5, 1.0)
    assert parse_shares("") == ()
    assert parse_shares("1.5") is None
    assert parse_shares("0,x") is None


def test_a_rating_fitted_at_once_balances_the_prior_against_what_the_games_say() -> None:
    # Against opponents of 1500 sure of their ratings: no games, the prior; even results, 1500 and a
    # narrower interval; at the maximum the pull of the games equals the prior's (elo's formula).
    assert fit([]) == (1500.0, 350.0)
    even, deviation = fit([((1500.0, 0.0), 1.0, 1.0), ((1500.0, 0.0), 1.0, 0.0)])
    assert even == pytest.approx(1500.0) and deviation < 350.0
    pairs = [((1500.0, 0.0), 1.0, 1.0)] * 3 + [((1500.0, 0.0), 1.0, 0.0)]
    rating, sure = fit(pairs)
    q = math.log(10.0) / 400.0
    pull = q * sum(score - 1.0 / (1.0 + 10.0 ** ((1500.0 - rating) / 400.0)) for _, _, score in pairs)
    assert pull == pytest.approx((rating - 1500.0) / 350.0**2, rel=1e-6)
    assert rating > 1600.0
    # Unsure opponents tell less: the same results leave a wider interval.
    _, unsure = fit([((1500.0, 300.0), 1.0, 1.0)] * 3 + [((1500.0, 300.0), 1.0, 0.0)])
    assert unsure > sure
