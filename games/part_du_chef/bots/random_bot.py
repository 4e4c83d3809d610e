"""The random bot: uniform among legal choices, steals and La Marianne included."""

from __future__ import annotations

import random
from itertools import combinations

from ..actions import Action, Cut, Steal, Swap, Take
from ..deck import CHILI, IS_FINISHER, KIND_OF, RING
from ..observation import Observation

# Every cut for each table size: drawing one index is uniform over legal cuts.
_CUTS = {n: tuple(combinations(range(RING), n)) for n in range(2, 6)}


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> Action:
        rng = self.rng
        seat = observation.seat
        if observation.phase == "cut":
            every_cut = _CUTS[observation.players]
            cuts = every_cut[int(rng.random() * len(every_cut))]
            swap = self._swap(observation, [], {}) if observation.marianne_holder == seat else None
            return Cut(cuts, swap)
        free = [i for i, who in enumerate(observation.taken_by) if who is None]
        index = free[0] if len(free) == 1 else free[int(rng.random() * len(free))]
        slices = observation.portions[index]
        bits = rng.getrandbits(len(slices))
        eat = tuple(s for i, s in enumerate(slices) if KIND_OF[s] < CHILI and bits >> i & 1)
        steals: list[Steal] = []
        stolen: dict[int, int] = {}
        for f in slices:
            if IS_FINISHER[f] and f not in eat:
                kind = KIND_OF[f]
                options = [
                    (victim, s)
                    for victim, kept in enumerate(observation.kept)
                    if victim != seat
                    for s in kept
                    if KIND_OF[s] == kind
                ]
                pick = int(rng.random() * (len(options) + 1))
                if pick < len(options):
                    victim, s = options[pick]
                    steals.append(Steal(f, victim, s))
                    stolen[s] = victim
        swap = None
        if observation.marianne_holder == seat:
            gained = [s for s in slices if s not in eat]
            swap = self._swap(observation, gained, stolen)
        return Take(index, eat, tuple(steals), swap)

    def _swap(self, observation: Observation, gained: list[int], stolen: dict[int, int]) -> Swap | None:
        """Half the time, a uniformly drawn La Marianne swap, when one is possible after the action."""
        if self.rng.random() < 0.5:
            return None
        seat = observation.seat
        mine = list(observation.kept[seat]) + gained + list(stolen)
        theirs = [s for other, kept in enumerate(observation.kept) if other != seat for s in kept if s not in stolen]
        if len(mine) < 2 or len(theirs) < 2:
            return None
        give = self.rng.sample(mine, 2)
        take = self.rng.sample(theirs, 2)
        return Swap((give[0], give[1]), (take[0], take[1]))
