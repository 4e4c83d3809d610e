"""A game record as a sequence of frames for the replay viewer: one per action, plus the deal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.part_du_chef import Cut, State, replay
from web import gamelog, sentences


@dataclass(frozen=True)
class Frame:
    step: int
    pizza: int
    caption: str
    cuts: list[list[int] | None]
    owner: dict[int, int]
    eaten: dict[int, int]
    kept: list[list[int]]
    eaten_by_seat: list[list[int]]
    totals: list[int]
    # Slices that changed hands in this step by a steal or La Marianne (not by being taken).
    moved: list[int]

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "pizza": self.pizza,
            "caption": self.caption,
            "cuts": self.cuts,
            "owner": {str(k): v for k, v in self.owner.items()},
            "eaten": {str(k): v for k, v in self.eaten.items()},
            "kept": self.kept,
            "eatenBySeat": self.eaten_by_seat,
            "totals": self.totals,
            "moved": self.moved,
        }


def frames(record: dict[str, Any]) -> list[Frame]:
    """Every position of the game, from the deal to the end; captions from `web.sentences`."""
    final = replay(record, allow_unfinished=True)
    who = sentences.Seats(list(record["players"]))
    state = State.new(final.players, final.seed, marianne=final.marianne_enabled, marianne_seats=final.marianne_seats)
    cuts: list[list[int] | None] = [None] * 5
    out = [_frame(state, 0, sentences.deal(), cuts)]
    for step in gamelog.walk(final):
        if isinstance(step.action, Cut):
            cuts = cuts[:]
            cuts[step.pizza] = list(step.action.cuts)
        text = sentences.move(step.action, step.seat, step.pizza, who, step.portion, owners=step.before)
        if step.state.pizza != step.pizza:
            totals = [int(score.total) for score in step.state.scores()]
            text += " " + sentences.pizza_over(step.pizza, who, totals)
        moved = [
            sid for sid, owner in enumerate(step.state.owner) if step.before[sid] >= 0 and owner != step.before[sid]
        ]
        out.append(_frame(step.state, step.index + 1, text, cuts, step.pizza, moved))
    return out


def _frame(
    state: State,
    step: int,
    text: str,
    cuts: list[list[int] | None],
    pizza: int | None = None,
    moved: list[int] | None = None,
) -> Frame:
    owner = {sid: seat for sid, seat in enumerate(state.owner) if seat >= 0}
    eaten = {sid: seat for seat, ids in enumerate(state.eaten) for sid in ids}
    return Frame(
        step=step,
        pizza=min(state.pizza, 4) if pizza is None else pizza,
        caption=text,
        cuts=cuts,
        owner=owner,
        eaten=eaten,
        kept=[sorted(k) for k in state.kept],
        eaten_by_seat=[sorted(e) for e in state.eaten],
        totals=[score.total for score in state.scores()],
        moved=moved or [],
    )
