"""What one seat may see of a game: public information only."""

from __future__ import annotations

from typing import Any, NamedTuple

from .deck import CHILI, DECK, KIND_NAMES, KIND_OF
from .scoring import final_scores


def _slice_objects(ids: tuple[int, ...]) -> list[dict[str, object]]:
    return [DECK[s].to_json() for s in ids]


class Observation(NamedTuple):
    """A seat's view: the current pizza and its cut, every player's kept and eaten slices, La Marianne,
    and how many slices of each kind are still to come (never which, nor where).

    An immutable named tuple rather than a dataclass: bots get one per decision, and building a
    tuple is several times cheaper.
    """

    seat: int
    players: int
    pizza: int
    chef: int
    phase: str
    to_act: int | None
    turn: int
    ring: tuple[int, ...]
    cuts: tuple[int, ...] | None
    portions: tuple[tuple[int, ...], ...]
    taken_by: tuple[int | None, ...]
    kept: tuple[tuple[int, ...], ...]
    eaten: tuple[tuple[int, ...], ...]
    olives: tuple[int, ...]
    slices: tuple[int, ...]
    marianne_enabled: bool
    marianne_in_play: bool
    marianne_holder: int | None
    marianne_seats: tuple[int, ...]
    unseen: tuple[int, ...]

    def kept_counts(self) -> list[list[int]]:
        table = [[0] * len(KIND_NAMES) for _ in range(self.players)]
        for seat, ids in enumerate(self.kept):
            row = table[seat]
            for sid in ids:
                row[KIND_OF[sid]] += 1
        return table

    def provisional_scores(self) -> list[dict[str, int]]:
        """Scores if the game ended now (chili jokers assigned as at the end)."""
        chilis = [[s for s in ids if KIND_OF[s] == CHILI] for ids in self.kept]
        scores, _ = final_scores(self.kept_counts(), chilis, self.olives, self.slices)
        return [s.to_json() for s in scores]

    def to_json(self) -> dict[str, Any]:
        """The observation as bot protocol v1 sends it (see docs/bot-protocol.md)."""

        return {
            "seat": self.seat,
            "players": self.players,
            "pizza": self.pizza,
            "chef": self.chef,
            "phase": self.phase,
            "to_act": self.to_act,
            "turn": self.turn,
            "ring": _slice_objects(self.ring),
            "cuts": None if self.cuts is None else list(self.cuts),
            "portions": [
                {"index": i, "slices": list(p), "taken_by": self.taken_by[i]} for i, p in enumerate(self.portions)
            ],
            "kept": [_slice_objects(k) for k in self.kept],
            "eaten": [_slice_objects(e) for e in self.eaten],
            "olives": list(self.olives),
            "slices": list(self.slices),
            "scores": self.provisional_scores(),
            "marianne": {
                "enabled": self.marianne_enabled,
                "in_play": self.marianne_in_play,
                "holder": self.marianne_holder,
                "seats": list(self.marianne_seats),
            },
            "unseen": {KIND_NAMES[k]: n for k, n in enumerate(self.unseen)},
        }
