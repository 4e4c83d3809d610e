"""Greedy with random moves: a bot of graded strength whose policy is known exactly.

With probability `share` it plays the random bot's move, else greedy's. Versions of it a few
percent apart are the close pairs a comparison must tell apart, and its policy being known lets
the comparison's control variates correct its own decisions (games.part_du_chef.control_variates).

Its k-th decision draws from generators keyed by its seed and k, as the random bot's do: whether
the move is random (one uniform number, set against the share) and, if so, which. So two versions
seeded alike (a duplicate deal's A and B) decide alike wherever the number falls outside the shares
between them, and where both play at random they play the same random move at the same decision.
"""

from __future__ import annotations

from ..actions import Action
from ..observation import Observation
from .draws import KeyedDraws
from .greedy import GreedyBot
from .random_bot import RandomBot, decision_key


class NoisyGreedyBot:
    def __init__(self, share: float, seed: int = 0) -> None:
        if not 0.0 < share < 1.0:
            raise ValueError(f"the share of random moves must lie between 0 and 1, not {share}")
        self.name = f"noisy-greedy-{round(share * 100)}"
        self.share = share
        self.seed = seed
        self.decisions = 0
        self.draws = KeyedDraws(decision_key(seed, 0))
        self.greedy = GreedyBot(seed)
        self.random = RandomBot(seed ^ 0x5EED)

    def act(self, observation: Observation) -> Action:
        decision = self.decisions
        self.decisions += 1
        self.draws.key(decision_key(self.seed, decision))
        if self.draws.random() < self.share:
            return self.random.act_as(observation, decision)
        return self.greedy.act(observation)
