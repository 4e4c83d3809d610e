"""One seat's decisions in a finished game, rebuilt from its record: what the seat saw and what was played.

A record holds the seed and every action, so the observation a bot was sent before each of its
decisions is exactly ``State.observation(seat)`` at that point of the replay; nothing else needs to
be kept. Used by ``part-du-chef replay`` (run a bot again on those observations) and by the owner's
view of a match (what the bot saw, answered, how long it took).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import action_from_json
from .errors import IllegalAction, RecordError
from .record import replay
from .state import State

_PLACE_KEYS = ("seat", "pizza")  # a record's action says where it was played; a bot's answer does not


@dataclass(frozen=True)
class SeatDecision:
    turn: int
    observation: dict[str, Any]
    played: dict[str, Any]  # the action as a bot answers it (no seat, no pizza)
    decided_by: str  # "player", or "stand-in" once the seat had forfeited


def seat_decisions(record: dict[str, Any], seat: int) -> list[SeatDecision]:
    """Every decision of ``seat`` in a finished game, in order; a bad record raises RecordError."""
    replay(record)  # the whole record is checked first: seed, deal, every action legal, the game over
    players = len(record["players"])
    if not 0 <= seat < players:
        raise RecordError(f"seat {seat} does not exist: the game has seats 0 to {players - 1}")
    options = record["options"]
    state = State.new(
        players,
        record["seed"],
        marianne=bool(options.get("marianne", False)),
        marianne_seats=options.get("marianne_seats"),
    )
    arena = record.get("arena")
    decided_by = arena.get("decided_by") if isinstance(arena, dict) else None
    out = []
    for index, entry in enumerate(record["actions"]):
        if entry["seat"] == seat:
            who = decided_by[index] if isinstance(decided_by, list) and index < len(decided_by) else "player"
            played = {key: value for key, value in entry.items() if key not in _PLACE_KEYS}
            out.append(SeatDecision(state.turn, state.observation(seat).to_json(), played, str(who)))
        state.apply(action_from_json(entry))
    return out


def same_action(answer: object, played: dict[str, Any]) -> bool:
    """Whether a bot's answer is the action that was played (equal once parsed: list order of ids aside)."""
    try:
        return action_from_json(answer) == action_from_json(played)
    except (IllegalAction, TypeError, ValueError, KeyError):  # an answer that does not parse is another action
        return False
