"""The owner's view of a finished match: decision by decision, what the bot saw at its seat, what it
answered, how long it took and what it wrote to stderr.

The observations are rebuilt from the match's record (games.part_du_chef.seat_view), so nothing more is
stored than before; the seat's move log (BotSeat.moves) gives the status, latency, error and stderr of
each decision. Shown to the bot's owner only, and only once the match may be shown at all (arena.secrecy).
"""

from __future__ import annotations

from typing import Any

from arena.errors import RequestError
from arena.secrecy import held_back_reasons
from games.part_du_chef.seat_view import seat_decisions
from submissions.models import BotSeat


class NotShown(RequestError):
    """The match cannot be shown yet (or has no record): the reason says which."""


def owner_view(seat: BotSeat) -> dict[str, Any]:
    """The bot's own eyes at ``seat``: ``start`` (a failure before ready, else None) and ``decisions``."""
    match = seat.match
    reason = held_back_reasons([match])[match.id]
    if reason is not None:
        raise NotShown(reason)
    if match.record is None:
        raise NotShown(f"match {match.id} has no record")
    moves = [move for move in seat.moves if isinstance(move, dict)]
    by_turn = {move["turn"]: move for move in moves if move.get("turn") is not None}
    start = next((move for move in moves if move.get("at") == "start"), None)
    decisions = []
    for decision in seat_decisions(match.record, seat.seat):
        move = by_turn.get(decision.turn, {})
        decisions.append(
            {
                "turn": decision.turn,
                "observation": decision.observation,
                "played": decision.played,
                "decided_by": decision.decided_by,
                "status": move.get("status"),
                "latency_ms": move.get("latency_ms"),
                "error": move.get("error"),
                "answer": move.get("answer"),
                "stderr": move.get("stderr", ""),
            }
        )
    return {
        "match": match.id,
        "seat": seat.seat,
        "version": seat.version.number,
        "players": list(match.record["players"]),
        "start": start,
        "decisions": decisions,
        "stderr": seat.stderr,
    }
