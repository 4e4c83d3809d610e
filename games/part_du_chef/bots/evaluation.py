"""Position evaluation shared by the greedy and search bots.

A position is judged by provisional scores (the game's own scoring, as if it ended now) seen
from one seat: its total minus the mean total of its opponents. Everything here works on kept
counts per kind, which is all a score depends on, so trying a choice costs one scoring call.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement
from typing import NamedTuple

from ..actions import Steal, Swap, Take
from ..deck import (
    BURNT,
    BURNT_PENALTY,
    CHILI,
    IS_FINISHER,
    KIND_NAMES,
    KIND_OF,
    MAJORITY_VALUE,
    OLIVES_OF,
    RING,
    SORTS,
    VARIETY_MULTIPLIER,
)
from ..observation import Observation

_KINDS = len(KIND_NAMES)


class Position:
    """Kept counts per kind, eaten olives and slice points of every seat."""

    __slots__ = ("counts", "olives", "received")

    def __init__(self, counts: list[list[int]], olives: list[int], received: list[int]) -> None:
        self.counts = counts
        self.olives = olives
        self.received = received

    @classmethod
    def of_observation(cls, observation: Observation) -> Position:
        return cls(observation.kept_counts(), list(observation.olives), list(observation.slices))

    def copy(self) -> Position:
        return Position([row[:] for row in self.counts], self.olives[:], self.received[:])

    def totals(self) -> list[int]:
        return provisional_totals(self.counts, self.olives, self.received)

    def value(self, seat: int) -> float:
        return relative(self.totals(), seat)


_CHILI_SORTS = tuple(tuple(combinations_with_replacement(SORTS, k)) for k in range(4))


def provisional_totals(counts: Sequence[Sequence[int]], olives: Sequence[int], received: Sequence[int]) -> list[int]:
    """Every seat's total if the game ended now, exactly as the rules score it, from counts alone
    (the scoring module also names each chili's sort, which evaluation does not need)."""
    table = counts
    for row in counts:
        if row[CHILI]:
            with_chilis = [list(row[:CHILI]) for row in counts]
            for seat, held in enumerate(counts):
                if held[CHILI]:
                    _assign_chilis(with_chilis, seat, held[CHILI])
            table = with_chilis
            break
    columns = list(zip(*table, strict=True))
    highest = [max(columns[sort]) for sort in SORTS]
    totals = []
    for seat, row in enumerate(table):
        total = olives[seat] + received[seat] + BURNT_PENALTY * counts[seat][BURNT]
        low = row[0]
        for sort in SORTS:
            count = row[sort]
            if count < low:
                low = count
            if count and count == highest[sort]:
                total += MAJORITY_VALUE[sort]
        totals.append(total + VARIETY_MULTIPLIER * low)
    return totals


# The same chili questions come up again and again while planning; their answers are memoised.
_CHILI_MEMO: dict[tuple[tuple[int, ...], tuple[int, ...], int], tuple[int, ...]] = {}
_CHILI_MEMO_SIZE = 200_000


def _assign_chilis(table: list[list[int]], seat: int, chilis: int) -> None:
    """The rules' assignment: the first multiset of sorts that maximises the holder's majorities and variety."""
    row = table[seat]
    best_other = tuple(max(column) for column in zip(*table[:seat], *table[seat + 1 :], strict=True))
    key = (tuple(row), best_other, chilis)
    best = _CHILI_MEMO.get(key)
    if best is None:
        best = _best_chili_sorts(row, best_other, chilis)
        if len(_CHILI_MEMO) >= _CHILI_MEMO_SIZE:
            _CHILI_MEMO.clear()
        _CHILI_MEMO[key] = best
    for sort in best:
        row[sort] += 1


def _best_chili_sorts(row: list[int], best_other: tuple[int, ...], chilis: int) -> tuple[int, ...]:
    best: tuple[int, ...] = ()
    best_points = -1
    for combo in _CHILI_SORTS[chilis]:
        for sort in combo:
            row[sort] += 1
        points = VARIETY_MULTIPLIER * min(row)
        for sort in SORTS:
            if row[sort] and row[sort] >= best_other[sort]:
                points += MAJORITY_VALUE[sort]
        for sort in combo:
            row[sort] -= 1
        if points > best_points:
            best, best_points = combo, points
    return best


def relative(totals: Sequence[int], seat: int) -> float:
    """`seat`'s total minus the mean total of the others."""
    return totals[seat] - (sum(totals) - totals[seat]) / (len(totals) - 1)


class TakePlan(NamedTuple):
    """How a seat would take one portion: what it eats, whom its finishers rob, and the result."""

    value: float
    eat: tuple[int, ...]
    steals: tuple[tuple[int, int], ...]  # (finisher, victim)
    totals: tuple[int, ...]


def _eating_groups(slices: Sequence[int]) -> list[list[int]]:
    """Edible slices by sort, in the order worth eating: most olives first, the finisher last."""
    groups: dict[int, list[int]] = {}
    for sid in slices:
        kind = KIND_OF[sid]
        if kind < CHILI:
            groups.setdefault(kind, []).append(sid)
    ordered = []
    for kind in sorted(groups):
        group = groups[kind]
        group.sort(key=lambda s: (IS_FINISHER[s], -OLIVES_OF[s], s))
        ordered.append(group)
    return ordered


def plan_take(position: Position, seat: int, slices: Sequence[int]) -> TakePlan:
    """The best way found for `seat` to take `slices`: how many of each sort to eat, then the steals.

    The eat count of each sort is chosen in turn (coordinate ascent, one pass, keeping on ties),
    each choice valued with the best steals of the finishers it keeps.
    """
    work = position.copy()
    row = work.counts[seat]
    for sid in slices:
        row[KIND_OF[sid]] += 1
        if KIND_OF[sid] != BURNT:
            work.received[seat] += 1
    groups = _eating_groups(slices)
    eaten_count = [0] * len(groups)
    finishers = any(IS_FINISHER[group[-1]] for group in groups)

    def evaluate() -> tuple[float, tuple[tuple[int, int], ...], list[int]]:
        totals = work.totals()
        if not finishers:
            return relative(totals, seat), (), totals
        steals = _best_steals(work, seat, groups, eaten_count, relative(totals, seat))
        if not steals:
            return relative(totals, seat), (), totals
        for finisher, victim in steals:
            kind = KIND_OF[finisher]
            work.counts[victim][kind] -= 1
            row[kind] += 1
        totals = work.totals()
        for finisher, victim in steals:
            kind = KIND_OF[finisher]
            work.counts[victim][kind] += 1
            row[kind] -= 1
        return relative(totals, seat), steals, totals

    best_value, best_steals, best_totals = evaluate()
    for g, group in enumerate(groups):
        kind = KIND_OF[group[0]]
        olives_before = work.olives[seat]
        chosen = 0
        for n in range(1, len(group) + 1):
            eaten_count[g] = n
            row[kind] -= 1
            work.olives[seat] += OLIVES_OF[group[n - 1]]
            value, steals, totals = evaluate()
            if value > best_value:
                best_value, best_steals, best_totals, chosen = value, steals, totals, n
        # Settle this sort on its best count before trying the next one.
        row[kind] += len(group) - chosen
        eaten_count[g] = chosen
        work.olives[seat] = olives_before + sum(OLIVES_OF[s] for s in group[:chosen])
    eat = tuple(s for group, n in zip(groups, eaten_count, strict=True) for s in group[:n])
    return TakePlan(best_value, eat, best_steals, tuple(best_totals))


def _best_steals(
    position: Position, seat: int, groups: list[list[int]], eaten_count: list[int], base: float
) -> tuple[tuple[int, int], ...]:
    """For each kept finisher (the last slice of its group), the victim whose loss helps `seat` most, if any."""
    steals: list[tuple[int, int]] = []
    counts = position.counts
    for group, n in zip(groups, eaten_count, strict=True):
        finisher = group[-1]
        if not IS_FINISHER[finisher] or n == len(group):
            continue
        kind = KIND_OF[finisher]
        best_victim = -1
        best_value = base
        for victim, row in enumerate(counts):
            if victim == seat or row[kind] == 0:
                continue
            row[kind] -= 1
            counts[seat][kind] += 1
            value = position.value(seat)
            row[kind] += 1
            counts[seat][kind] -= 1
            if value > best_value:
                best_victim, best_value = victim, value
        if best_victim >= 0:
            steals.append((finisher, best_victim))
    return tuple(steals)


def steal_slices(steals: Sequence[tuple[int, int]], kept: Sequence[Sequence[int]]) -> tuple[Steal, ...]:
    """Name the slice each planned steal takes: the victim's lowest kept id of the finisher's sort."""
    result = []
    taken: set[int] = set()
    for finisher, victim in steals:
        kind = KIND_OF[finisher]
        sid = min(s for s in kept[victim] if KIND_OF[s] == kind and s not in taken)
        taken.add(sid)
        result.append(Steal(finisher, victim, sid))
    return tuple(result)


def arcs(ring: Sequence[int], players: int) -> dict[tuple[int, int], tuple[int, ...]]:
    """Every portion a cut of `ring` can make, by (first position, length)."""
    doubled = tuple(ring) + tuple(ring)
    return {
        (start, length): doubled[start : start + length]
        for start in range(RING)
        for length in range(1, RING - players + 2)
    }


def rank_cuts(position: Position, ring: Sequence[int], chef: int) -> list[tuple[float, tuple[int, ...]]]:
    """Every cut with its value for the chef, best first: "I cut, you choose".

    Each other seat, in turn from the chef's left, takes the portion best for itself as `plan_take`
    judges it against the position before the cut; the chef gets what is left. The cut's value is
    the sum of what each take does to the chef's relative score.
    """
    players = len(position.olives)
    base = position.totals()
    # For each seat and portion: how that seat values taking it, and what it does to the chef.
    for_taker: dict[tuple[int, int, int], float] = {}
    for_chef: dict[tuple[int, int, int], float] = {}
    for key, slices in arcs(ring, players).items():
        for seat in range(players):
            plan = plan_take(position, seat, slices)
            delta = [after - before for after, before in zip(plan.totals, base, strict=True)]
            for_taker[(seat, *key)] = plan.value
            for_chef[(seat, *key)] = relative(delta, chef)
    ranked = []
    order = [(chef + 1 + i) % players for i in range(players - 1)]
    for cuts in combinations(range(RING), players):
        portions = [(c, (cuts[i + 1] if i + 1 < players else cuts[0] + RING) - c) for i, c in enumerate(cuts)]
        value = 0.0
        for seat in order:
            best = max(portions, key=lambda p: for_taker[(seat, *p)])
            portions.remove(best)
            value += for_chef[(seat, *best)]
        value += for_chef[(chef, *portions[0])]
        ranked.append((value, cuts))
    ranked.sort(key=lambda item: -item[0])
    return ranked


def best_swap(kept: Sequence[Sequence[int]], position: Position, seat: int) -> tuple[float, Swap | None]:
    """The La Marianne swap that helps `seat` most, with its gain in relative score (None if none helps).

    Slices of one sort held by one seat are alike for scoring, so one-for-one exchanges are tried
    between sorts, the best single exchanges are then paired up.
    """
    base = position.value(seat)
    counts = position.counts
    mine = _representatives([(seat, s) for s in kept[seat]])
    theirs = _representatives([(other, s) for other, ids in enumerate(kept) if other != seat for s in ids])
    singles: list[tuple[float, tuple[int, int], tuple[int, int]]] = []
    for give in mine:
        for take in theirs:
            _exchange(counts, seat, give, take, 1)
            singles.append((position.value(seat) - base, give, take))
            _exchange(counts, seat, give, take, -1)
    singles.sort(key=lambda item: -item[0])
    best_gain, best = 0.0, None
    top = singles[:12]
    for (_, g1, t1), (_, g2, t2) in combinations(top, 2):
        if g1[1] == g2[1] or t1[1] == t2[1]:
            continue
        _exchange(counts, seat, g1, t1, 1)
        _exchange(counts, seat, g2, t2, 1)
        gain = position.value(seat) - base
        _exchange(counts, seat, g2, t2, -1)
        _exchange(counts, seat, g1, t1, -1)
        if gain > best_gain:
            best_gain, best = gain, Swap((g1[1], g2[1]), (t1[1], t2[1]))
    return best_gain, best


def _representatives(held: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """At most two (owner, slice) per owner and kind: the others score the same."""
    seen: dict[tuple[int, int], int] = {}
    result = []
    for owner, sid in sorted(held):
        key = (owner, KIND_OF[sid])
        if seen.get(key, 0) < 2:
            seen[key] = seen.get(key, 0) + 1
            result.append((owner, sid))
    return result


def _exchange(counts: list[list[int]], seat: int, give: tuple[int, int], take: tuple[int, int], sign: int) -> None:
    given, taken, other = KIND_OF[give[1]], KIND_OF[take[1]], take[0]
    counts[seat][given] -= sign
    counts[other][given] += sign
    counts[other][taken] -= sign
    counts[seat][taken] += sign


def take_of_plan(
    observation: Observation, position: Position, index: int, plan: TakePlan, marianne_threshold: float | None
) -> tuple[Take, float]:
    """The Take action of a plan for the seat to act, with La Marianne attached when it gains at least
    `marianne_threshold` (never when the threshold is None), and the swap's gain (0 without one)."""
    seat = observation.seat
    steals = steal_slices(plan.steals, observation.kept)
    if marianne_threshold is None or not (observation.marianne_in_play and observation.marianne_holder == seat):
        return Take(index, plan.eat, steals), 0.0
    kept = [list(ids) for ids in observation.kept]
    after = position.copy()
    for sid in observation.portions[index]:
        kind = KIND_OF[sid]
        if kind != BURNT:
            after.received[seat] += 1
        if sid in plan.eat:
            after.olives[seat] += OLIVES_OF[sid]
        else:
            kept[seat].append(sid)
            after.counts[seat][kind] += 1
    for steal in steals:
        kept[steal.victim].remove(steal.slice)
        kept[seat].append(steal.slice)
        kind = KIND_OF[steal.slice]
        after.counts[steal.victim][kind] -= 1
        after.counts[seat][kind] += 1
    gain, swap = best_swap(kept, after, seat)
    if swap is None or gain < marianne_threshold:
        return Take(index, plan.eat, steals), 0.0
    return Take(index, plan.eat, steals, swap), gain
