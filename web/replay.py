"""A game record as a sequence of frames for the replay viewer: one per action, plus the deal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.part_du_chef import DECK, Cut, State, Take, replay
from web.pizza import describe, sort_name


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


def _names(sids: tuple[int, ...] | list[int]) -> str:
    return ", ".join(describe(s) for s in sids) or "—"


def caption(action: Any, seat: int, pizza: int, names: list[str], portion: tuple[int, ...] = ()) -> str:
    who = names[seat]
    if isinstance(action, Cut):
        text = _("%(who)s cuts pizza %(pizza)d at gaps %(gaps)s.") % {
            "who": who,
            "pizza": pizza + 1,
            "gaps": ", ".join(str(c) for c in action.cuts),
        }
    else:
        assert isinstance(action, Take)
        text = _("%(who)s takes portion %(portion)d, eats: %(eaten)s; keeps: %(kept)s.") % {
            "who": who,
            "portion": action.portion + 1,
            "eaten": _names(action.eat),
            "kept": _names([s for s in portion if s not in action.eat]),
        }
        for steal in action.steals:
            text += " " + _("Finisher steals %(slice)s from %(victim)s.") % {
                "slice": sort_name_of(steal.slice),
                "victim": names[steal.victim],
            }
    if action.marianne is not None:
        text += " " + _("«Use my card»: gives %(give)s and takes %(take)s.") % {
            "give": _names(list(action.marianne.give)),
            "take": _names(list(action.marianne.take)),
        }
    return text


def sort_name_of(sid: int) -> str:
    return sort_name(DECK[sid].kind)


def frames(record: dict[str, Any]) -> list[Frame]:
    """Every position of the game, from the deal to the end."""
    final = replay(record, allow_unfinished=True)
    names = list(record["players"])
    state = State.new(final.players, final.seed, marianne=final.marianne_enabled, marianne_seats=final.marianne_seats)
    cuts: list[list[int] | None] = [None] * 5
    out = [_frame(state, 0, _("The deal: five pizzas, each seen only when its turn comes."), cuts)]
    for step, (seat, pizza, action) in enumerate(final.history, start=1):
        before = state.owner[:]
        portion = state.portions[action.portion] if isinstance(action, Take) else ()
        state.apply(action)
        if isinstance(action, Cut):
            cuts = cuts[:]
            cuts[pizza] = list(action.cuts)
        moved = [sid for sid, owner in enumerate(state.owner) if before[sid] >= 0 and owner != before[sid]]
        out.append(_frame(state, step, caption(action, seat, pizza, names, portion), cuts, pizza, moved))
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
