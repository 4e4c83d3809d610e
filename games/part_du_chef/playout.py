"""Random play straight on a State: the engine's fast path for the benchmark and for tests.

A bot sees the game through an `Observation` built for it at every decision; a playout that only
needs legal random moves can read the state itself and skip that. `random_action` chooses the way
the random bot does (without La Marianne) and `play_random` plays a game to its end with it.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Final

from .actions import Action, Cut, Steal, Take
from .deck import CHILI, IS_FINISHER, KIND_OF, PIZZAS, RING
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
