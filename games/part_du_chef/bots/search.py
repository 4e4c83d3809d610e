"""The search bot: determinized Monte Carlo over sampled deals of the pizzas to come.

For a decision it picks candidate actions with the greedy evaluation: the best cuts by "I cut,
you choose"; for a take, each portion with its best eat-or-keep plan and with keeping everything,
with and without La Marianne. The current pizza is fully visible, so after a candidate the rest
of it is played once by greedy takers. The pizzas to come are hidden: the bot samples deals of
them consistent with what it has seen, plays every candidate to the end on the same deal with the
same random choices of fast heuristic policies (common random numbers), and scores a playout by
its final total minus its opponents' mean. Successive halving spends the playouts: after each
round the better half of the candidates goes on to more deals. On the last pizza nothing is
hidden and one playout per candidate is exact.

With a playout budget (the default) the bot is deterministic for its seed; a time limit per move
may cut a search short. So may a deadline (`deadline`, a `time.monotonic()` instant the game must be
over by): each decision then takes at most an even share of the time left among the decisions left
in the game, and past the deadline the bot plays greedy's choice without searching, so a game played by
search bots ends in time on a starved machine; on a machine with time to spare the playout budget binds
first and the bot stays deterministic (docs/bots.md).
"""

from __future__ import annotations

import math
import random
import time

from ..actions import Action, Cut, Take
from ..deck import PIZZAS
from ..observation import Observation
from ..playout import play_policies
from ..state import State
from .determinize import sample_state
from .evaluation import Position, plan_take, rank_cuts, relative, steal_slices, take_of_plan


class SearchBot:
    name = "search"

    def __init__(
        self,
        seed: int = 0,
        *,
        playouts: int = 48,
        cut_candidates: int = 10,
        time_limit: float | None = None,
        cut_samples: int = 50,
    ) -> None:
        """`playouts`: the budget of playouts per decision, per candidate (successive halving gives
        them mostly to the best); `cut_candidates`: how many of greedy's best cuts are searched;
        `time_limit`: seconds per decision after which sampling stops (the bot is then no longer
        reproducible); `cut_samples`: how many random cuts a chef compares in a playout.

        The defaults keep a four-player game under half a second of thinking for the bot;
        `SearchBot(playouts=200)` is stronger and about four times slower (docs/bots.md)."""
        if playouts < 1:
            raise ValueError("playouts must be at least 1")
        if cut_candidates < 1:
            raise ValueError("cut_candidates must be at least 1")
        self.seed = seed
        self.rng = random.Random(seed)
        self.playouts = playouts
        self.cut_candidates = cut_candidates
        self.time_limit = time_limit
        self.cut_samples = cut_samples
        # The instant (time.monotonic()) by which the whole game must be over, set by whoever plays it.
        self.deadline: float | None = None

    def act(self, observation: Observation) -> Action:
        candidates = self.candidates(observation)
        if len(candidates) == 1 or self._past_deadline():
            # Past the deadline nothing is searched: the greedy choice, first of the candidates, at once.
            return candidates[0]
        return candidates[self._best(observation, candidates)]

    def _past_deadline(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    # -- candidates ------------------------------------------------------------------------

    def candidates(self, observation: Observation) -> list[Action]:
        """The actions worth searching, the greedy choice first."""
        position = Position.of_observation(observation)
        seat = observation.seat
        if observation.phase == "cut":
            ranked = rank_cuts(position, observation.ring, seat)
            return [Cut(cuts) for _, cuts in ranked[: self.cut_candidates]]
        scored: list[tuple[float, Take]] = []
        for index, who in enumerate(observation.taken_by):
            if who is not None:
                continue
            slices = observation.portions[index]
            plan = plan_take(position, seat, slices)
            keep_all = plan._replace(eat=())
            for variant in (plan, keep_all) if plan.eat else (plan,):
                take, gain = take_of_plan(observation, position, index, variant, 0.0)
                scored.append((variant.value + gain, take))
                if take.marianne is not None:
                    scored.append((variant.value, Take(take.portion, take.eat, take.steals)))
        scored.sort(key=lambda item: -item[0])
        unique: list[Action] = []
        for _, take in scored:
            if take not in unique:
                unique.append(take)
        return unique

    # -- evaluation ------------------------------------------------------------------------

    def _best(self, observation: Observation, candidates: list[Action]) -> int:
        """Successive halving: every candidate still in the race plays the same sampled deals, and after
        each round the better half goes on, so that most playouts go to the closest contenders."""
        seat = observation.seat
        start = time.perf_counter()
        limit = self._limit(observation)
        base = sample_state(observation, self.rng)
        lines = [[candidate, *_finish_pizza(_after(base, candidate))] for candidate in candidates]
        totals = [0.0] * len(candidates)
        alive = list(range(len(candidates)))
        if observation.pizza == PIZZAS - 1:
            # Nothing is hidden any more: one playout per candidate is exact.
            rounds, budget = 1, len(candidates)
        else:
            rounds, budget = max(1, math.ceil(math.log2(len(candidates)))), self.playouts * len(candidates)
        state: State | None = base
        out_of_time = False
        for _ in range(rounds):
            for _ in range(max(1, budget // (rounds * len(alive)))):
                if state is None:
                    state = sample_state(observation, self.rng)
                policy_seed = self.rng.getrandbits(32)
                for i in alive:
                    play = state.clone()
                    for action in lines[i]:
                        play.apply(action)
                    play_policies(play, random.Random(policy_seed), self.cut_samples)
                    totals[i] += relative([s.total for s in play.scores()], seat)
                state = None
                if limit is not None and time.perf_counter() - start > limit:
                    out_of_time = True
                    break
            alive.sort(key=lambda i: (-totals[i], i))
            if out_of_time:
                break
            alive = alive[: (len(alive) + 1) // 2]
        return alive[0]

    def _limit(self, observation: Observation) -> float | None:
        """Seconds this decision may take: the time limit, and an even share of what the deadline leaves."""
        limit = self.time_limit
        if self.deadline is not None:
            # Each pizza: one cut and a take per seat, for the decisions of every seat still to come.
            left = (PIZZAS - observation.pizza) * (observation.players + 1)
            share = max(0.0, self.deadline - time.monotonic()) / max(1, left)
            limit = share if limit is None else min(limit, share)
        return limit


def _after(state: State, action: Action) -> State:
    play = state.clone()
    play.apply(action)
    return play


def _finish_pizza(state: State) -> list[Action]:
    """The rest of the current pizza's takes, each taker greedy (the pizza is visible to all)."""
    actions: list[Action] = []
    pizza = state.pizza
    while state.pizza == pizza and state.phase == "take":
        seat = state.to_act
        assert seat is not None
        position = Position(state.counts, state.olives, state.received)
        best_index, best_plan = -1, None
        for index, who in enumerate(state.taken_by):
            if who is None:
                plan = plan_take(position, seat, state.portions[index])
                if best_plan is None or plan.value > best_plan.value:
                    best_index, best_plan = index, plan
        assert best_plan is not None
        take = Take(best_index, best_plan.eat, steal_slices(best_plan.steals, state.kept))
        state.apply(take)
        actions.append(take)
    return actions
