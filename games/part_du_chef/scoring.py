"""End-of-game scoring: majorities, olives, slice points, variety bonus, burnt slices, chili jokers."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Any, Final

from .deck import BURNT, BURNT_PENALTY, KIND_NAMES, MAJORITY_VALUE, SORTS, VARIETY_MULTIPLIER

# Every multiset of sorts for 0..3 chilis, in the tie-break order the rules fix.
_CHILI_COMBOS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(combinations_with_replacement(SORTS, k)) for k in range(4)
)


# Immutable values written as plain classes with final attributes (see actions.py for why).


class Score:
    __slots__ = ("seat", "majority", "olives", "slices", "variety", "burnt", "total")

    def __init__(
        self, seat: int, majority: int, olives: int, slices: int, variety: int, burnt: int, total: int
    ) -> None:
        self.seat: Final = seat
        self.majority: Final = majority
        self.olives: Final = olives
        self.slices: Final = slices
        self.variety: Final = variety
        self.burnt: Final = burnt
        self.total: Final = total

    def _key(self) -> tuple[int, int, int, int, int, int, int]:
        return (self.seat, self.majority, self.olives, self.slices, self.variety, self.burnt, self.total)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Score) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"Score(seat={self.seat}, majority={self.majority}, olives={self.olives}, slices={self.slices}, "
            f"variety={self.variety}, burnt={self.burnt}, total={self.total})"
        )

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


class ChiliAssignment:
    __slots__ = ("seat", "slice", "sort")

    def __init__(self, seat: int, slice: int, sort: int) -> None:
        self.seat: Final = seat
        self.slice: Final = slice
        self.sort: Final = sort

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ChiliAssignment)
            and self.seat == other.seat
            and self.slice == other.slice
            and self.sort == other.sort
        )

    def __hash__(self) -> int:
        return hash((self.seat, self.slice, self.sort))

    def __repr__(self) -> str:
        return f"ChiliAssignment(seat={self.seat}, slice={self.slice}, sort={self.sort})"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "slice": self.slice, "sort": KIND_NAMES[self.sort]}


# The same multiset as a count per sort, for each k and in the same order.
_CHILI_ADDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(combo.count(sort) for sort in SORTS) for combo in combos) for combos in _CHILI_COMBOS
)


def _best_combo(row: Sequence[int], best_other: Sequence[int], chilis: int) -> tuple[int, ...]:
    """The first multiset of `chilis` sorts maximising majority + variety for sort counts `row`.

    Only two things about a sort matter to the choice: how many chilis it takes to reach the majority
    (none, 1..chilis, or more than the holder has) and how far its count is above the holder's
    lowest (capped at `chilis`, beyond which it can no longer be the lowest). Positions alike in
    those are alike in their answer, so answers are memoised on them and each is computed once.
    """
    low = min(row[0], row[1], row[2], row[3], row[4])
    cap = chilis + 1
    need = [0, 0, 0, 0, 0]
    gap = [0, 0, 0, 0, 0]
    # The key packs chilis (1..3), then per sort need (0..cap <= 4) and gap (0..chilis <= 3).
    key = chilis
    for sort in range(5):
        count = row[sort]
        target = best_other[sort] if best_other[sort] > 1 else 1
        n = target - count
        need[sort] = 0 if n < 0 else cap if n > cap else n
        g = count - low
        gap[sort] = chilis if g > chilis else g
        key = (key * 5 + need[sort]) * 4 + gap[sort]
    index = _CHILI_MEMO.get(key)
    if index is None:
        index, best_points = 0, -1
        adds = _CHILI_ADDS[chilis]
        for i in range(len(adds)):
            add = adds[i]
            low_after = chilis
            points = 0
            for sort in range(5):
                a = add[sort]
                if gap[sort] + a < low_after:
                    low_after = gap[sort] + a
                if a >= need[sort]:
                    points += MAJORITY_VALUE[sort]
            points += VARIETY_MULTIPLIER * low_after
            if points > best_points:
                index, best_points = i, points
        if len(_CHILI_MEMO) >= _CHILI_MEMO_SIZE:
            _CHILI_MEMO.clear()
        _CHILI_MEMO[key] = index
    return _CHILI_COMBOS[chilis][index]


# Played games reach a few thousand distinct keys; the bound only guards against adversarial input.
_CHILI_MEMO: dict[int, int] = {}
_CHILI_MEMO_SIZE = 100_000


def assign_chilis(kept: Sequence[Sequence[int]], chili_ids: Sequence[Sequence[int]]) -> list[ChiliAssignment]:
    """Give each kept chili a sort, seat by seat from seat 0.

    `kept` holds each seat's kept counts per kind. A holder's chilis get the multiset of sorts that
    maximises the holder's own majority + variety, counting the chilis of seats already assigned and
    ignoring the others; ties go to the first multiset in combinations_with_replacement order.
    """
    return _assign(_sort_counts(kept), chili_ids)


def _sort_counts(kept: Sequence[Sequence[int]]) -> list[list[int]]:
    return [[row[0], row[1], row[2], row[3], row[4]] for row in kept]


def _assign(table: list[list[int]], chili_ids: Sequence[Sequence[int]]) -> list[ChiliAssignment]:
    """`assign_chilis` on a table of sort counts, which it completes with the chilis it assigns."""
    result: list[ChiliAssignment] = []
    players = len(table)
    for seat in range(len(chili_ids)):
        ids = chili_ids[seat]
        if not ids:
            continue
        row = table[seat]
        best_other = [0, 0, 0, 0, 0]
        for other in range(players):
            if other != seat:
                counts = table[other]
                for sort in range(5):
                    if counts[sort] > best_other[sort]:
                        best_other[sort] = counts[sort]
        best = _best_combo(row, best_other, len(ids))
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
    table = _sort_counts(kept)
    chilis = _assign(table, chili_ids)
    highest = [0, 0, 0, 0, 0]
    for row in table:
        for sort in range(5):
            if row[sort] > highest[sort]:
                highest[sort] = row[sort]
    scores = []
    for seat in range(len(table)):
        row = table[seat]
        majority = 0
        for sort in range(5):
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
