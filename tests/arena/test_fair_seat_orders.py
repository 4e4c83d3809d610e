"""arena.seating: a table's seat order balances each player's seats over its games (no database)."""

from __future__ import annotations

import doctest
import random
from collections import Counter

from arena import seating
from arena.seating import SeatTally, balanced_order


def test_the_examples_hold() -> None:
    result = doctest.testmod(seating)
    assert result.attempted > 0 and result.failed == 0


def test_a_lone_player_against_a_rotating_ladder_sits_in_every_seat_alike_whatever_the_seed() -> None:
    for seed in range(50):
        tally, rng = SeatTally(), random.Random(seed)
        ladder = ["random", "greedy", "search-fast", "search"]
        seats = Counter()
        for game in range(12):
            house = [ladder[(2 * game) % 4], ladder[(2 * game + 1) % 4]]
            seats[balanced_order(["lone", *house], tally, rng).index("lone")] += 1
        assert set(seats) == {0, 1, 2} and seats[0] <= 6, (seed, seats)
        assert max(seats.values()) - min(seats.values()) <= 2


def test_the_shorter_record_is_balanced_first() -> None:
    """Both sat first too often: a house bot 1,000 times of 1,500 (250 games over its share), a newcomer
    3 times of 3 (1.5 over). Relative to their games the newcomer is the more unbalanced: it sits second."""
    tally = SeatTally()
    for seat, games in enumerate((1000, 500)):
        tally.add_seat("house", seat, 2, games)
    tally.add_seat("newcomer", 0, 2, 3)
    for seed in range(10):
        assert balanced_order(["newcomer", "house"], tally.of(["newcomer", "house"], 2), random.Random(seed)) == [
            "house",
            "newcomer",
        ]


def test_ties_are_drawn_from_the_seed_not_from_the_order_given() -> None:
    firsts = Counter(balanced_order(["a", "b", "c"], SeatTally(), random.Random(seed))[0] for seed in range(60))
    assert set(firsts) == {"a", "b", "c"}
    assert balanced_order(["a", "b", "c"], SeatTally(), random.Random(3)) == balanced_order(
        ["a", "b", "c"], SeatTally(), random.Random(3)
    )


def test_a_table_of_several_deals_turns_its_order_and_counts_every_deal() -> None:
    tally = SeatTally()
    order = balanced_order([1, 2, 3], tally, random.Random(0), deals=3)
    assert [tally.counts(player, 3) for player in order] == [[1, 1, 1]] * 3
    assert seating.rotated(order, 1) == [order[1], order[2], order[0]]
