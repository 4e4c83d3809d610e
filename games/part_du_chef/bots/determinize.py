"""Game states consistent with what one seat observes, the pizzas to come being drawn at random.

A seat sees the current pizza and every kept and eaten slice, so the slices still to come are
known as a set; only their split between the pizzas to come and their places in each ring are
hidden. Pizza p always holds burnt slice BURNT_IDS[p] and twelve of the other unseen slices.
"""

from __future__ import annotations

import random

from ..deck import BURNT, BURNT_IDS, DECK_SIZE, KIND_OF, PIZZAS, RING
from ..observation import Observation
from ..state import State


def unseen_slices(observation: Observation) -> list[int]:
    """Ids of the slices in the pizzas to come, in id order."""
    seen = set(observation.ring)
    for ids in observation.kept:
        seen.update(ids)
    for ids in observation.eaten:
        seen.update(ids)
    return [sid for sid in range(DECK_SIZE) if sid not in seen]


def sample_pizzas(observation: Observation, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """Five rings agreeing with the observation: the played pizzas (their slices in some order, which
    nothing downstream depends on), the current one as seen, and the ones to come drawn at random."""
    current = observation.pizza
    ring = set(observation.ring)
    played = sorted(sid for ids in (*observation.kept, *observation.eaten) for sid in ids if sid not in ring)
    pizzas = [tuple(played[RING * p : RING * (p + 1)]) for p in range(current)]
    pizzas.append(tuple(observation.ring))
    others = [sid for sid in unseen_slices(observation) if KIND_OF[sid] != BURNT]
    rng.shuffle(others)
    for n, p in enumerate(range(current + 1, PIZZAS)):
        future = others[(RING - 1) * n : (RING - 1) * (n + 1)]
        future.append(BURNT_IDS[p])
        rng.shuffle(future)
        pizzas.append(tuple(future))
    return tuple(pizzas)


def sample_state(observation: Observation, rng: random.Random) -> State:
    """A State at the observed decision whose pizzas to come are drawn at random."""
    if observation.phase == "over":
        raise ValueError("the game is over: there is nothing to sample")
    return State.from_observation(observation, sample_pizzas(observation, rng))
