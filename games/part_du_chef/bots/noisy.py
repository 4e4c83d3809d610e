"""Greedy with random moves: a bot of graded strength whose policy is known exactly.

With probability `share` it plays the random bot's move, else greedy's. Versions of it a few
percent apart are the close pairs a comparison must tell apart, and its policy being known lets
the comparison's control variates correct its own decisions (games.part_du_chef.control_variates).
"""

from __future__ import annotations

import random

from ..actions import Action
from ..observation import Observation
from .greedy import GreedyBot
from .random_bot import RandomBot


class NoisyGreedyBot:
    def __init__(self, share: float, seed: int = 0) -> None:
        if not 0.0 < share < 1.0:
            raise ValueError(f"the share of random moves must lie between 0 and 1, not {share}")
        self.name = f"noisy-greedy-{round(share * 100)}"
        self.share = share
        self.rng = random.Random(seed)
        self.greedy = GreedyBot(seed)
        self.random = RandomBot(seed ^ 0x5EED)

    def act(self, observation: Observation) -> Action:
        if self.rng.random() < self.share:
            return self.random.act(observation)
        return self.greedy.act(observation)
