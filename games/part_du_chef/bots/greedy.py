"""The greedy bot: the best move one ply ahead, judged by provisional scores.

Taking, it values every available portion with the best eat-or-keep count per sort and the best
steal for each finisher it keeps, and takes the portion that most raises its total relative to
its opponents. Cutting, it plays "I cut, you choose": every cut is valued by what the chef is left
with once the others, from its left, have each taken the portion best for them. It plays La
Marianne with a take (which comes after any cut of its own on that pizza, so knows more) when the
best swap gains at least `marianne_threshold` points of relative score.
"""

from __future__ import annotations

from ..actions import Action, Cut
from ..observation import Observation
from .evaluation import Position, plan_take, rank_cuts, take_of_plan


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0, *, marianne_threshold: float = 1.0) -> None:
        # Greedy play is deterministic; the seed is accepted like every built-in bot's.
        self.seed = seed
        self.marianne_threshold = marianne_threshold

    def act(self, observation: Observation) -> Action:
        position = Position.of_observation(observation)
        if observation.phase == "cut":
            return Cut(rank_cuts(position, observation.ring, observation.seat)[0][1])
        best_index, best_plan = -1, None
        for index, who in enumerate(observation.taken_by):
            if who is not None:
                continue
            plan = plan_take(position, observation.seat, observation.portions[index])
            if best_plan is None or plan.value > best_plan.value:
                best_index, best_plan = index, plan
        assert best_plan is not None
        return take_of_plan(observation, position, best_index, best_plan, self.marianne_threshold)[0]
