"""Playing whole games between bots in one process."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .bots.base import Bot
from .state import State


def play_state(
    bots: Sequence[Bot], seed: int, *, marianne: bool = False, marianne_seats: Iterable[int] | None = None
) -> State:
    """Play a game to its end, each seat's bot choosing from its own observation."""
    state = State.new(len(bots), seed, marianne=marianne, marianne_seats=marianne_seats)
    to_act = state.to_act
    while to_act is not None:
        state.apply(bots[to_act].act(state.observation(to_act)))
        to_act = state.to_act
    return state


def play_game(
    bots: Sequence[Bot],
    seed: int,
    *,
    names: Sequence[str] | None = None,
    marianne: bool = False,
    marianne_seats: Iterable[int] | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play a game and return its record."""
    state = play_state(bots, seed, marianne=marianne, marianne_seats=marianne_seats)
    return state.to_record(list(names) if names is not None else [b.name for b in bots], extra)
