"""Playouts straight on a State: the engine's fast path for the benchmark, the tests and the search bot.

A bot sees the game through an `Observation` built for it at every decision; a playout that only
needs legal random moves can read the state itself and skip that. `random_action` chooses the way
the random bot does (without La Marianne) and `play_random` plays a game to its end with it.
`play_policies` plays on with the search bot's quick policies, many thousand times per decision.
"""

from __future__ import annotations

import math
import random
from itertools import combinations
from typing import Final

from .actions import Action, Cut, Steal, Take
from .deck import BURNT, CHILI, DECK_SIZE, IS_FINISHER, KIND_OF, MAJORITY_VALUE, OLIVES_OF, PIZZAS, RING
from .state import State

# Every cut for each table size: drawing one index is uniform over legal cuts.
_CUTS: Final = {n: tuple(combinations(range(RING), n)) for n in range(2, 6)}


def random_action(state: State, rng: random.Random) -> Action:
    """A uniform cut; or a uniform free portion, each edible slice eaten when its random bit is set,
    and each kept finisher stealing one of its options or nothing, uniformly. Never La Marianne."""
    seat = state.to_act
    if seat is None:
        raise ValueError("the game is over: there is no action to choose")
    if state.cuts is None:
        every_cut = _CUTS[state.players]
        return Cut(every_cut[int(rng.random() * len(every_cut))])
    taken_by = state.taken_by
    free: list[int] = []
    for i in range(len(taken_by)):
        if taken_by[i] is None:
            free.append(i)
    index = free[0] if len(free) == 1 else free[int(rng.random() * len(free))]
    slices = state.portions[index]
    bits = rng.getrandbits(len(slices))
    eat: list[int] = []
    finishers: list[int] = []
    for i in range(len(slices)):
        sid = slices[i]
        if KIND_OF[sid] < CHILI and bits >> i & 1:
            eat.append(sid)
        elif IS_FINISHER[sid]:
            finishers.append(sid)
    steals: list[Steal] = []
    kept = state.kept
    for f in finishers:
        kind = KIND_OF[f]
        options: list[tuple[int, int]] = []
        for victim in range(len(kept)):
            if victim != seat:
                for sid in kept[victim]:
                    if KIND_OF[sid] == kind:
                        options.append((victim, sid))
        pick = int(rng.random() * (len(options) + 1))
        if pick < len(options):
            victim, sid = options[pick]
            steals.append(Steal(f, victim, sid))
    return Take(index, tuple(eat), tuple(steals))


def play_random(state: State, rng: random.Random) -> State:
    """Play `state` to its end with `random_action`, through the checked `State.apply`."""
    while state.pizza < PIZZAS:
        state.apply(random_action(state, rng))
    return state


# -- the search bot's playout policies ------------------------------------------------------------

# What a kept slice is worth beyond its slice point in a playout, and more for a sort not yet held
# (every sort held is what the variety bonus asks for).
_KEEP: Final = 1.0
_NEW_SORT: Final = 2.0
# A slice's rough worth when cutting in a playout: the chef keeps what the others leave.
_SLICE_WORTH: Final = tuple(
    -4.0 if KIND_OF[s] == BURNT else 3.0 if KIND_OF[s] == CHILI else 1.5 + OLIVES_OF[s] / 2 for s in range(DECK_SIZE)
)


def play_policies(state: State, rng: random.Random, cut_samples: int) -> None:
    """Play to the end with the search bot's fast policies: a balanced cut among a few random ones,
    a quick take (see docs/bots.md, search, step 4)."""
    while True:
        seat = state.to_act
        if seat is None:
            return
        if state.cuts is None:
            state.apply(Cut(quick_cut(state.ring, state.players, rng, cut_samples)))
        else:
            state.apply(quick_take(state, seat))


def quick_cut(ring: tuple[int, ...], players: int, rng: random.Random, samples: int) -> tuple[int, ...]:
    """Of `samples` uniformly drawn cuts, the first whose poorest portion is worth most."""
    every = _CUTS[players]
    prefix = [0.0]
    total = 0.0
    for _ in range(2):
        for sid in ring:
            total += _SLICE_WORTH[sid]
            prefix.append(total)
    best, best_value = every[0], -math.inf
    for _ in range(samples):
        cuts = every[int(rng.random() * len(every))]
        low = math.inf
        for i in range(players):
            end = cuts[i + 1] if i + 1 < players else cuts[0] + RING
            worth = prefix[end] - prefix[cuts[i]]
            if worth < low:
                low = worth
        if low > best_value:
            best, best_value = cuts, low
    return best


def quick_take(state: State, seat: int) -> Take:
    """The free portion worth most by `quick_plan`, each kept finisher robbing the opponent with most of its sort."""
    counts = state.counts
    mine = counts[seat]
    best_other = [0, 0, 0, 0, 0]
    for other in range(len(counts)):
        if other != seat:
            row = counts[other]
            for kind in range(5):
                if row[kind] > best_other[kind]:
                    best_other[kind] = row[kind]
    best_value, best_index = -math.inf, -1
    best_eat: tuple[int, ...] = ()
    taken_by = state.taken_by
    for index in range(len(taken_by)):
        if taken_by[index] is not None:
            continue
        value, eat = quick_plan(state.portions[index], mine, best_other)
        if value > best_value:
            best_value, best_index, best_eat = value, index, eat
    steals: list[Steal] = []
    for sid in state.portions[best_index]:
        if IS_FINISHER[sid] and sid not in best_eat:
            kind = KIND_OF[sid]
            # The first seat with the most of the sort, the taker itself never.
            victim, most = -1, -1
            for other in range(state.players):
                have = -1 if other == seat else counts[other][kind]
                if have > most:
                    victim, most = other, have
            if victim != seat and most > 0:
                for stolen in state.kept[victim]:
                    if KIND_OF[stolen] == kind:
                        steals.append(Steal(sid, victim, stolen))
                        break
    return Take(best_index, best_eat, tuple(steals))


def quick_plan(slices: tuple[int, ...], mine: list[int], best_other: list[int]) -> tuple[float, tuple[int, ...]]:
    """A portion's rough worth to a taker, keeping a sort when it wins or holds the majority by it."""
    value = 0.0
    by_sort: dict[int, list[int]] = {}
    for sid in slices:
        kind = KIND_OF[sid]
        if kind == BURNT:
            value -= 3.0
        elif kind == CHILI:
            value += 1.0 + _NEW_SORT
        else:
            value += 1.0
            if kind in by_sort:
                by_sort[kind].append(sid)
            else:
                by_sort[kind] = [sid]
    eat: list[int] = []
    for kind, group in by_sort.items():
        have, rival, n = mine[kind], best_other[kind], len(group)
        wins = 1 if have + n >= rival else 0
        held = 1 if have > 0 and have >= rival else 0
        keep = MAJORITY_VALUE[kind] * (wins - held) + n * _KEEP
        if have == 0:
            keep += _NEW_SORT
        olives = 0
        for sid in group:
            olives += OLIVES_OF[sid]
        if olives > keep:
            value += olives
            eat.extend(group)
        else:
            value += keep
    return value, tuple(eat)
