"""A seat's score with luck taken out: control variates at the decisions of bots whose policy is known.

A comparison plays both bots on the same deals (duplicate), which removes the deal's main effect;
once play diverges, which slices come to whom is luck again. This module takes part of that luck
out of each game's score after the game, from its actions, the way AIVAT does for poker (Burch,
Schmid, Moravčík, Morrill, Bowling, AAAI-18):

    corrected = score - sum over corrected events e of  w(e) * ( V(after e) - E[V(after e')] )

where V is a fixed value function of a position, e' is drawn from the distribution e itself was
drawn from, and w(e) a fixed weight. Each term has mean zero whatever happened before it (e is a
draw from that very distribution, independent of the e' it is set against), so the corrected score
has exactly the expectation of the score: it is unbiased whatever V and the weights are, which
only decide how much variance goes. Leaving an event out (a weight of zero) is always allowed.

The events:

* **decisions of bots whose policy is known**: the built-in random bot (uniform over legal
  choices) and greedy with P% random moves (`noisy-greedy-P`: greedy's move, or the random bot's
  with probability P%). The expectation is exact for greedy's part and the mean of `MOVES`
  independent draws of the random bot for the rest. Greedy alone is deterministic: its terms are
  zero. Bots of unknown policy (programs, hosted bots, the search bots) are never corrected: their
  choices are what a comparison measures. A greedy-based bot's cuts are corrected under a baseline
  that says so (`Baseline.cuts`): their expectation costs a full greedy cut search.
* **chance**: each pizza's ring as it is revealed, set against rings dealt from the slices not yet
  revealed, shuffled as the deal shuffles them. Measured and available (`WITH_CHANCE`), but not in
  the comparison's baseline: with any V this project can afford, a ring's value for a seat does not
  predict its score (the outcome turns on exactly how the pizza is cut and taken), so these terms
  add variance instead of removing it (docs/bots-submission.md, "Luck-corrected scores").

The value function V of the comparisons' baseline (`BASELINE`, game-rollout/2): over 4 playouts of
the rest of the game by every seat with the search bot's quick policies (`playout.play_policies`: a
balanced cut among a few drawn ones, a quick take), on the game's own pizzas, the seat's mean final
total less half the other seats' mean final total. The earlier baselines are kept for the benchmark
and for comparisons stored under their names: game-rollout/1 (`GAME_ROLLOUT_1`), the same playouts
valuing the seat's total alone; pizza-lookahead/1 (`PIZZA_LOOKAHEAD`), which played out the current
pizza only and took the provisional total (the game's own scoring, as if it ended now). A seat's
score turns less on an early decision than V says (majorities still change hands), so the weights
grow pizza by pizza: chosen once from least-squares fits and grids on deals the benchmark never
plays, then frozen in the baseline, whose name a verdict gives. Changing V, the draws or a weight
is a new baseline with a new name.

The draws (alternatives, the fixed cuts of V) come from the deal's seed, the seat and the event's
place only: the A-game and the B-game of a duplicate deal meet the same draws at the same place.

>>> from .bots import get_bot
>>> from .play import play_state
>>> state = play_state([get_bot("noisy-greedy-20", 1), get_bot("greedy", 2), get_bot("random", 3)], 7)
>>> result = correct(7, 3, ("noisy-greedy-20", "greedy", "random"), state.history, seat=0)
>>> result.score == state.scores()[0].total and result.events > 0
True
>>> abs(result.score - result.own - result.others - result.chance - result.corrected) < 1e-9
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from .actions import Action, Cut
from .bots import noisy_share
from .bots.evaluation import provisional_totals
from .bots.greedy import GreedyBot
from .bots.random_bot import RandomBot
from .deck import PIZZAS, RING
from .playout import play_policies, quick_cut, quick_take
from .state import State

# Alternatives drawn per corrected event: random moves per decision, rings per reveal.
MOVES: Final = 8
RINGS: Final = 8
# Cuts the quick cut draws from (see playout.quick_cut).
CUT_SAMPLES: Final = 6


@dataclass(frozen=True)
class Baseline:
    """A frozen value function and its weights, by name: estimates are comparable under one name only."""

    name: str
    own: tuple[float, ...]  # per pizza, the weight of the corrected seat's own known decisions
    others: tuple[float, ...]  # per pizza, the weight of the other seats' known decisions
    chance: float = 0.0  # the weight of each pizza's reveal (0: not computed)
    # V: 0, the provisional total once the current pizza is played out; n > 0, the mean final
    # total of n quick playouts to the game's end.
    rollouts: int = 0
    # Whether the cuts of greedy-based bots are corrected (their expectation costs a greedy cut).
    cuts: bool = False
    # How much of the other seats' mean total V takes off the seat's own (0: the seat's total alone).
    opponents: float = 0.0
    # At a table of two, the V and weights of this baseline instead (under the outer one's name).
    heads_up: Baseline | None = None

    def for_table(self, players: int) -> Baseline:
        """The V and weights used at a table of `players` seats."""
        if players == 2 and self.heads_up is not None:
            return replace(self.heads_up, name=self.name, chance=self.chance)
        return self


# Chosen from least-squares fits, per pizza, on 300 duplicate deals (seeds 7000-7149 and 9000-9149;
# noisy-greedy-10 against noisy-greedy-20, and greedy against noisy-greedy-10, each against greedy and random).
_RAMP: Final = (0.3, 0.4, 0.5, 0.7, 1.0)
PIZZA_LOOKAHEAD: Final = Baseline("pizza-lookahead/1", _RAMP, tuple(0.4 * w for w in _RAMP))
# The previous comparisons' baseline: V played out to the game's end (4 quick playouts), greedy-based
# cuts corrected as well. Its weights were chosen the same way, on the same pairs, seeds 7000-7149 and
# 9000-9149: of the ramps tried, the one whose corrected differences varied least over both pairs.
_ROLLOUT_RAMP: Final = (0.5, 0.7, 0.9, 1.0, 1.0)
GAME_ROLLOUT_1: Final = Baseline(
    "game-rollout/1", _ROLLOUT_RAMP, tuple(0.5 * w for w in _ROLLOUT_RAMP), rollouts=4, cuts=True
)
# The comparisons' baseline: the same playouts, V the seat's total less half the other seats' mean
# (what a draw takes from one opponent or gives it is the seat's gain or loss too, in part: slices
# go to someone). Its weights and that half were chosen together, on the same two pairs at tables
# of three, seeds 7000-7299: of the grid tried, the one whose corrected differences varied least on
# the worse pair. At a table of two it is game-rollout/1's: there the opponents' share added
# variance (noisy-greedy-50 against itself, against random: 1.67x less than plain instead of 2.2x).
_RELATIVE_RAMP: Final = (0.4, 0.64, 0.8, 0.8, 0.8)
BASELINE: Final = Baseline(
    "game-rollout/2",
    _RELATIVE_RAMP,
    tuple(0.5 * w for w in _RELATIVE_RAMP),
    rollouts=4,
    cuts=True,
    opponents=0.5,
    heads_up=GAME_ROLLOUT_1,
)
# The same with the chance terms weighed in at full weight: what the benchmark measures them by.
WITH_CHANCE: Final = replace(BASELINE, name=f"{BASELINE.name}+chance", chance=1.0)
# Every baseline by its name: today's and those verdicts were given under before.
BASELINES: Final = {baseline.name: baseline for baseline in (BASELINE, GAME_ROLLOUT_1, PIZZA_LOOKAHEAD)}


@dataclass(frozen=True)
class KnownPolicy:
    """A bot whose choices are drawn from a known distribution: greedy's move with probability
    `greedy_share`, else the random bot's."""

    greedy_share: float

    @property
    def deterministic(self) -> bool:
        return self.greedy_share >= 1.0


def known_policy(name: str) -> KnownPolicy | None:
    """The policy of a built-in bot by its name, or None where it is not known in closed form.

    >>> known_policy("random"), known_policy("greedy"), known_policy("noisy-greedy-20")
    (KnownPolicy(greedy_share=0.0), KnownPolicy(greedy_share=1.0), KnownPolicy(greedy_share=0.8))
    >>> known_policy("search-fast") is None
    True
    """
    if name == "random":
        return KnownPolicy(0.0)
    if name == "greedy":
        return KnownPolicy(1.0)
    share = noisy_share(name)
    return None if share is None else KnownPolicy(1.0 - share)


@dataclass(frozen=True)
class Corrected:
    """One seat's score in one game, and the weighted sums of the terms taken off it."""

    score: float
    own: float  # the corrected seat's own known decisions
    others: float  # the other seats' known decisions
    chance: float  # the pizzas' reveals
    events: int  # how many events were corrected

    @property
    def corrected(self) -> float:
        return self.score - self.own - self.others - self.chance


def value(state: State, seat: int, seed: int, rollouts: int = 0, opponents: float = 0.0) -> float:
    """V for `seat`, its draws from `seed`: with no `rollouts`, the provisional total once the current
    pizza is played out quickly; else the mean final total of that many quick playouts to the end.
    With `opponents`, that share of the other seats' mean total is taken off the seat's own.

    A playout deals the pizzas the state holds: the game's own, known to the server once it is over.
    Using them is sound for decision terms, since a bot's choice does not depend on pizzas not yet
    revealed; the chance terms deal other rings into the state before asking V.
    """
    if rollouts and state.pizza < PIZZAS:
        total = 0.0
        for playout in range(rollouts):
            probe = state.clone()
            play_policies(probe, random.Random(seed * 16 + playout), CUT_SAMPLES)
            total += _seat_value([score.total for score in probe.scores()], seat, opponents)
        return total / rollouts
    if state.pizza < PIZZAS:
        state = state.clone()
        pizza = state.pizza
        rng = random.Random(seed)
        while state.pizza == pizza:
            to_act = state.to_act
            assert to_act is not None
            if state.cuts is None:
                state.apply(Cut(quick_cut(state.ring, state.players, rng, CUT_SAMPLES)))
            else:
                state.apply(quick_take(state, to_act))
    return _seat_value(provisional_totals(state.counts, state.olives, state.received), seat, opponents)


def _seat_value(totals: Sequence[int], seat: int, opponents: float) -> float:
    others = (sum(totals) - totals[seat]) / (len(totals) - 1)
    return totals[seat] - opponents * others


def _value_seed(seed: int, seat: int, pizza: int) -> int:
    return (seed * 1_000_003 + seat * 101 + pizza) & 0xFFFFFFFF


def _draws(seed: int, seat: int, step: int, kind: str) -> random.Random:
    # Seeded from text (hashed by `random`): a stream of its own for each deal, seat and event.
    return random.Random(f"control-variates/{kind}/{seed}/{seat}/{step}")


def _after(state: State, action: Action, actor: int) -> State:
    probe = state.clone()
    probe.apply(action, seat=actor)
    return probe


def decision_term(
    state: State,
    action: Action,
    actor: int,
    policy: KnownPolicy,
    seat: int,
    seed: int,
    baseline: Baseline = BASELINE,
) -> float | None:
    """V after `action`, less its expectation under the actor's policy, for `seat`; None where not corrected."""
    baseline = baseline.for_table(state.players)
    if policy.deterministic or (state.cuts is None and policy.greedy_share > 0 and not baseline.cuts):
        return None
    value_seed = _value_seed(seed, seat, state.pizza)
    rollouts, opponents = baseline.rollouts, baseline.opponents
    actual = value(_after(state, action, actor), seat, value_seed, rollouts, opponents)
    observation = state.observation(actor)
    draws = _draws(seed, seat, state.turn, "move")
    drawn = 0.0
    for _ in range(MOVES):
        move = RandomBot(draws.getrandbits(32)).act(observation)
        drawn += value(_after(state, move, actor), seat, value_seed, rollouts, opponents)
    expected = drawn / MOVES
    if policy.greedy_share > 0:
        greedy = value(_after(state, GreedyBot().act(observation), actor), seat, value_seed, rollouts, opponents)
        expected = policy.greedy_share * greedy + (1.0 - policy.greedy_share) * expected
    return actual - expected


def chance_term(state: State, seat: int, seed: int, baseline: Baseline = BASELINE) -> float:
    """V with the current pizza's ring, less the mean V over rings dealt from the slices not yet revealed.

    `state` is at a pizza's start (revealed, not cut yet).
    """
    baseline = baseline.for_table(state.players)
    pizza = state.pizza
    value_seed = _value_seed(seed, seat, pizza)
    actual = value(state, seat, value_seed, baseline.rollouts, baseline.opponents)
    unseen = [sid for ring in state.pizzas[pizza:] for sid in ring]
    draws = _draws(seed, seat, pizza, "ring")
    total = 0.0
    for _ in range(RINGS):
        draws.shuffle(unseen)
        rings = tuple(tuple(unseen[i : i + RING]) for i in range(0, len(unseen), RING))
        dealt = state.with_pizzas(state.pizzas[:pizza] + rings)
        total += value(dealt, seat, value_seed, baseline.rollouts, baseline.opponents)
    return actual - total / RINGS


def correct(
    seed: int,
    players: int,
    names: Sequence[str],
    history: Sequence[tuple[int, int, Action]],
    seat: int,
    *,
    marianne: bool = False,
    marianne_seats: Iterable[int] | None = None,
    stand_in: Sequence[bool] = (),
    baseline: Baseline = BASELINE,
) -> Corrected:
    """Replay a game dealt from `seed` (its `State.history`) and correct `seat`'s score.

    `names` are the seats' bots (built-in names; anything else is of unknown policy). An action
    `stand_in` marks as the arena's stand-in's, for a seat that forfeited, is not corrected.
    Raises ValueError when the actions are not a whole legal game.
    """
    if len(names) != players:
        raise ValueError(f"{len(names)} names for {players} seats")
    baseline = baseline.for_table(players)
    policies = [known_policy(name) for name in names]
    state = State.new(players, seed, marianne=marianne, marianne_seats=marianne_seats)
    own = others = chance = 0.0
    events = 0
    for step, (actor, _, action) in enumerate(history):
        if baseline.chance and state.cuts is None:
            chance += baseline.chance * chance_term(state, seat, seed, baseline)
            events += 1
        policy = policies[actor]
        if policy is not None and not (step < len(stand_in) and stand_in[step]):
            term = decision_term(state, action, actor, policy, seat, seed, baseline)
            if term is not None:
                if actor == seat:
                    own += baseline.own[state.pizza] * term
                else:
                    others += baseline.others[state.pizza] * term
                events += 1
        state.apply(action, seat=actor)
    if not state.is_over:
        raise ValueError(f"the actions end before the game does ({len(history)} actions)")
    return Corrected(float(state.scores()[seat].total), own, others, chance, events)


__all__ = [
    "BASELINE",
    "BASELINES",
    "GAME_ROLLOUT_1",
    "WITH_CHANCE",
    "Baseline",
    "Corrected",
    "PIZZA_LOOKAHEAD",
    "KnownPolicy",
    "chance_term",
    "correct",
    "decision_term",
    "known_policy",
    "value",
]
