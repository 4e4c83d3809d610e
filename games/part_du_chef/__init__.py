"""La Part du Chef: the rules, game records and built-in bots, with no dependency beyond Python.

>>> state = State.new(players=3, seed=7)
>>> state.to_act, state.phase
(0, 'cut')
>>> state.apply(Cut((0, 4, 8)))
>>> state.to_act, state.phase
(1, 'take')
"""

from __future__ import annotations

from .native import usable_build

# A current compiled build of the hot modules, when there is one, is imported instead of their sources.
_build = usable_build()
if _build is not None:
    __path__.insert(0, str(_build))

from .actions import Action, Cut, Steal, Swap, Take, action_from_json
from .deck import DECK, KIND_NAMES, Slice, deal
from .errors import IllegalAction, InvalidAction, RecordError
from .observation import Observation
from .play import play_game
from .record import RECORD_FORMAT, record_of, replay
from .scoring import ChiliAssignment, Score
from .state import MAX_PLAYERS, MIN_PLAYERS, State

__all__ = [
    "Action",
    "ChiliAssignment",
    "Cut",
    "DECK",
    "IllegalAction",
    "InvalidAction",
    "KIND_NAMES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "Observation",
    "RECORD_FORMAT",
    "RecordError",
    "Score",
    "Slice",
    "State",
    "Steal",
    "Swap",
    "Take",
    "action_from_json",
    "deal",
    "play_game",
    "record_of",
    "replay",
]
