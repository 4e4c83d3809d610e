"""Who sits where: round-robin tables, swiss tables, fair seat orders, seat rotations and deals (pure
functions, but for the random seed of a deal).

>>> round_robin_tables([1, 2, 3, 4], 3)
[(1, 2, 3), (1, 2, 4), (1, 3, 4), (2, 3, 4)]
>>> table_sizes(7, 3)
[3, 2, 2]
>>> games_per_round(5, 2, 1, duplicate=True, round_robin=False)
4
>>> [rotations((1, 2, 3), deal, duplicate=True) for deal in (0, 1)]
[[(1, 2, 3), (2, 3, 1), (3, 1, 2)], [(1, 2, 3), (2, 3, 1), (3, 1, 2)]]
>>> [rotations((1, 2, 3), deal, duplicate=False) for deal in (0, 1)]
[[(1, 2, 3)], [(2, 3, 1)]]
>>> games_per_round(7, 3, 2, duplicate=True, round_robin=False)
14

Each table's order is drawn so that every entrant's seats stay balanced over the tournament
(arena.seating): at four entrants and tables of three, each sits once in every seat.

>>> tally = SeatTally()
>>> orders = fair_orders(round_robin_tables([1, 2, 3, 4], 3), 1, duplicate=False, tally=tally, rng=random.Random(5))
>>> [tally.counts(entrant, 3) for entrant in (1, 2, 3, 4)]
[[1, 1, 1], [1, 1, 1], [1, 1, 1], [1, 1, 1]]
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Collection, Hashable, Sequence
from typing import TypeVar

from arena.seating import SeatTally, balanced_order
from arena.seeds import draw_seed

T = TypeVar("T", bound=Hashable)


def round_robin_tables(entries: Sequence[T], size: int) -> list[tuple[T, ...]]:
    """Every table of `size` entrants, once."""
    return list(itertools.combinations(entries, size))


def table_sizes(count: int, size: int) -> list[int]:
    """Swiss tables for `count` entrants: as few tables as tables of at most `size` allow, their
    sizes as equal as possible, the larger first."""
    if count < 2:
        raise ValueError("a round needs at least 2 entrants")
    tables = math.ceil(count / size)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def needs_bye(count: int, size: int) -> bool:
    """Only heads-up tables can leave one entrant alone: an odd count at tables of 2."""
    return size == 2 and count % 2 == 1


def swiss_tables(ordered: Sequence[T], size: int, had_bye: Collection[T] = ()) -> tuple[list[tuple[T, ...]], T | None]:
    """Consecutive entrants of the standings (best first) share a table.

    At tables of 2 with an odd count, the lowest-placed entrant without a bye yet sits the round out.

    >>> swiss_tables([1, 2, 3, 4, 5], 2, had_bye={5})
    ([(1, 2), (3, 5)], 4)
    >>> swiss_tables([1, 2, 3, 4, 5, 6, 7], 3)
    ([(1, 2, 3), (4, 5), (6, 7)], None)
    """
    ordered = list(ordered)
    bye = None
    if needs_bye(len(ordered), size):
        free = [entry for entry in ordered if entry not in had_bye] or ordered
        bye = free[-1]
        ordered.remove(bye)
    tables = []
    start = 0
    for width in table_sizes(len(ordered), size):
        tables.append(tuple(ordered[start : start + width]))
        start += width
    return tables, bye


def rotations(table: tuple[T, ...], deal: int, *, duplicate: bool) -> list[tuple[T, ...]]:
    """The seatings a deal is played in: every rotation (duplicate), or one turned by the deal."""
    width = len(table)
    if duplicate:
        return [table[shift:] + table[:shift] for shift in range(width)]
    shift = deal % width
    return [table[shift:] + table[:shift]]


def fair_orders(
    tables: Sequence[tuple[T, ...]], games_per_table: int, *, duplicate: bool, tally: SeatTally, rng: random.Random
) -> list[tuple[T, ...]]:
    """Each table's seat order for this round, given the seats its entrants took in earlier rounds
    (`tally`, updated with this round's). A table's deals are played in its order turned by the deal,
    so the order chosen is the one whose rotations balance best; duplicate deals play every rotation,
    where every entrant sits in every seat alike whatever the order."""
    orders = []
    for table in tables:
        if duplicate:
            for rotation in range(len(table) * games_per_table):
                tally.add(table[rotation % len(table) :] + table[: rotation % len(table)])
            orders.append(tuple(table))
        else:
            orders.append(tuple(balanced_order(table, tally, rng, deals=games_per_table)))
    return orders


def games_of_table(width: int, games_per_table: int, *, duplicate: bool) -> int:
    return games_per_table * (width if duplicate else 1)


def games_per_round(count: int, size: int, games_per_table: int, *, duplicate: bool, round_robin: bool) -> int:
    if round_robin:
        return math.comb(count, size) * games_of_table(size, games_per_table, duplicate=duplicate)
    seated = count - 1 if needs_bye(count, size) else count
    return sum(games_of_table(w, games_per_table, duplicate=duplicate) for w in table_sizes(seated, size))


def deal_seed() -> int:
    """A fresh seed for one deal, drawn once and shared by every rotation of it: that is what makes a
    deal duplicate. Drawn at random, never derived from the tournament, round or table numbers,
    which are public: a seed anyone can compute is a deal anyone can read before it is played."""
    return draw_seed()
