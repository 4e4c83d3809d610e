"""People as a kind of seat: they sit at tables played decision by decision, never in service-played matches."""

from __future__ import annotations

from typing import Any

from arena.models import Player
from arena.seats import SeatKind, Where


def refusal(player: Player, where: Where, pin: Any = None) -> str | None:
    if where == Where.MATCH:
        return (
            f"player {player.id} ({player.name}) is a person; only bots can be seated in matches played by the service"
        )
    return None


PERSON = SeatKind(
    name="person",
    answers_for=lambda player: player.is_person,
    refusal=refusal,
)
