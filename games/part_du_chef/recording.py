"""Writing a game record (format part-du-chef/1) from a game state; reading one back is games.part_du_chef.record.

Kept apart from `record` so that the state can write its record without the record module, which
replays records into states, being imported by the state module in turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Protocol

from .actions import Action
from .deck import DECK
from .scoring import ChiliAssignment, Score


class RecordedGame(Protocol):
    """What a record is written from (a State)."""

    @property
    def players(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def marianne_enabled(self) -> bool: ...
    @property
    def marianne_seats(self) -> frozenset[int]: ...
    @property
    def pizzas(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def history(self) -> Sequence[tuple[int, int, Action]]: ...
    @property
    def is_over(self) -> bool: ...
    def results(self) -> tuple[tuple[Score, ...], list[ChiliAssignment]]: ...
    def ranks(self) -> tuple[int, ...]: ...


RECORD_FORMAT: Final = "part-du-chef/1"
_CORE_FIELDS: Final = ("format", "seed", "players", "options", "pizzas", "actions", "chili", "scores", "ranks")


def record_of(
    state: RecordedGame, players: list[str], extra: dict[str, Any] | None = None, *, derived: bool = True
) -> dict[str, Any]:
    """The record of `state` so far; `chili`, `scores` and `ranks` are null until the game is over.

    `derived=False`: without the fields that follow from the seed and the actions (`pizzas`, `chili`,
    `scores`, `ranks`: record.DERIVED_FIELDS), which `record.complete` writes back exactly; for a
    store that keeps only the rest, so that it does not write what it throws away (writing the deal
    and the scores costs more than playing a built-in bots' game).
    """
    if len(players) != state.players:
        raise ValueError(f"a record of a {state.players}-player game names {state.players} players, not {len(players)}")
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "seed": state.seed,
        "players": list(players),
        "options": {"marianne": state.marianne_enabled, "marianne_seats": sorted(state.marianne_seats)},
    }
    if derived:
        record["pizzas"] = [[DECK[s].to_json() for s in ring] for ring in state.pizzas]
    record["actions"] = [
        {"type": j.pop("type"), "seat": seat, "pizza": pizza, **j}
        for seat, pizza, action in state.history
        for j in (action.to_json(),)
    ]
    if derived:
        record["chili"] = record["scores"] = record["ranks"] = None
    if derived and state.is_over:
        scores, chilis = state.results()
        record["chili"] = [c.to_json() for c in chilis]
        record["scores"] = [s.to_json() for s in scores]
        record["ranks"] = list(state.ranks())
    for key, value in (extra or {}).items():
        if key in _CORE_FIELDS:
            raise ValueError(f"extra field {key!r} would overwrite a record field")
        record[key] = value
    return record
