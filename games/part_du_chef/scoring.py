"""End-of-game scoring: majorities, olives, slice points, variety bonus, burnt slices, chili jokers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any

from .deck import BURNT, BURNT_PENALTY, CHILI, KIND_NAMES, MAJORITY_VALUE, SORTS, VARIETY_MULTIPLIER

# Every multiset of sorts for 0..3 chilis, in the tie-break order the rules fix.
_CHILI_COMBOS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(combinations_with_replacement(SORTS, k)) for k in range(4)
)


@dataclass(frozen=True, slots=True)
class Score:
    seat: int
    majority: int
    olives: int
    slices: int
    variety: int
    burnt: int
    total: int

    def to_json(self) -> dict[str, int]:
        return {
            "seat": self.seat,
            "majority": self.majority,
            "olives": self.olives,
            "slices": self.slices,
            "variety": self.variety,
            "burnt": self.burnt,
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class ChiliAssignment:
    seat: int
    slice: int
    sort: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "slice": self.slice, "sort": KIND_NAMES[self.sort]}


def _majority_and_variety(mine: Sequence[int], best_other: Sequence[int]) -> int:
    """Majorities and variety for sort counts `mine` against the opponents' highest counts per sort."""
    points = 0
    for sort in SORTS:
        count = mine[sort]
        if count and count >= best_other[sort]:
            points += MAJORITY_VALUE[sort]
    return points + VARIETY_MULTIPLIER * min(mine)


def assign_chilis(kept: Sequence[Sequence[int]], chili_ids: Sequence[Sequence[int]]) -> list[ChiliAssignment]:
    """Give each kept chili a sort, seat by seat from seat 0.

    `kept` holds each seat's kept counts per kind. A holder's chilis get the multiset of sorts that
    maximises the holder's own majority + variety, counting the chilis of seats already assigned and
    ignoring the others; ties go to the first multiset in combinations_with_replacement order.
    """
    table = [list(row[:CHILI]) for row in kept]
    result: list[ChiliAssignment] = []
    for seat, ids in enumerate(chili_ids):
        if not ids:
            continue
        row = table[seat]
        best_other = [max([other[sort] for i, other in enumerate(table) if i != seat]) for sort in SORTS]
        best: tuple[int, ...] = ()
        best_points = -1
        for combo in _CHILI_COMBOS[len(ids)]:
            for sort in combo:
                row[sort] += 1
            points = _majority_and_variety(row, best_other)
            for sort in combo:
                row[sort] -= 1
            if points > best_points:
                best, best_points = combo, points
        for slice_id, sort in zip(sorted(ids), best, strict=True):
            row[sort] += 1
            result.append(ChiliAssignment(seat, slice_id, sort))
    return result


def final_scores(
    kept: Sequence[Sequence[int]],
    chili_ids: Sequence[Sequence[int]],
    olives: Sequence[int],
    received: Sequence[int],
) -> tuple[tuple[Score, ...], list[ChiliAssignment]]:
    """Scores per seat from kept counts per kind, kept chili ids, eaten olives and slice points."""
    chilis = assign_chilis(kept, chili_ids)
    table = [list(row[:CHILI]) for row in kept]
    for c in chilis:
        table[c.seat][c.sort] += 1
    scores = []
    highest = [max([row[sort] for row in table]) for sort in SORTS]
    for seat, row in enumerate(table):
        majority = 0
        for sort in SORTS:
            count = row[sort]
            if count and count == highest[sort]:
                majority += MAJORITY_VALUE[sort]
        variety = VARIETY_MULTIPLIER * min(row)
        burnt = BURNT_PENALTY * kept[seat][BURNT]
        total = majority + olives[seat] + received[seat] + variety + burnt
        scores.append(Score(seat, majority, olives[seat], received[seat], variety, burnt, total))
    return tuple(scores), chilis


def ranks_of(totals: Sequence[int]) -> tuple[int, ...]:
    """1 + the number of players with a strictly higher total (equal totals share a rank)."""
    return tuple(1 + sum(1 for other in totals if other > mine) for mine in totals)
