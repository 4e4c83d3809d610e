"""A game told step by step: the play table's log and the replay's frames walk the same steps and
speak through `web.sentences`."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from games.part_du_chef import Cut, State, Take
from web import sentences


@dataclass(frozen=True)
class Step:
    index: int  # the decision's index in the record (0 = the first cut)
    seat: int
    pizza: int
    action: Cut | Take
    portion: tuple[int, ...]  # the slices of the portion taken (empty for a cut)
    before: list[int]  # owners of the slices before the decision
    state: State  # after the decision (the same object at every step: read it at once)


def walk(final: State) -> Iterator[Step]:
    """Every decision of a game from the deal, replayed on a fresh state."""
    state = State.new(final.players, final.seed, marianne=final.marianne_enabled, marianne_seats=final.marianne_seats)
    for index, (seat, pizza, action) in enumerate(final.history):
        before = state.owner[:]
        portion = tuple(state.portions[action.portion]) if isinstance(action, Take) else ()
        state.apply(action)
        yield Step(index, seat, pizza, action, portion, before, state)


@dataclass(frozen=True)
class Entry:
    number: int  # 1-based decision number; 0 for the deal
    kind: str  # "move" or "pizza" (a pizza's summary)
    text: str
    mine: bool = False  # the viewer's own decision


def entries(final: State, who: sentences.Seats, house: dict[int, str] | None = None) -> list[Entry]:
    """The log of a game so far, oldest first: each decision, and a summary after each pizza."""
    house = house or {}
    out: list[Entry] = []
    for step in walk(final):
        out.append(
            Entry(
                step.index + 1,
                "move",
                sentences.move(
                    step.action, step.seat, step.pizza, who, step.portion, house.get(step.index), step.before
                ),
                mine=step.seat == who.viewer,
            )
        )
        if step.state.pizza != step.pizza:
            totals = [int(score.total) for score in step.state.scores()]
            out.append(Entry(step.index + 1, "pizza", sentences.pizza_over(step.pizza, who, totals)))
    return out


def to_json(log: Sequence[Entry]) -> list[dict[str, Any]]:
    return [{"number": e.number, "kind": e.kind, "text": e.text, "mine": e.mine} for e in log]
