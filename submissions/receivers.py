"""Hooks on the match core: record how submitted bots played, inside the result's transaction."""

from __future__ import annotations

from typing import Any

from arena.models import Match
from submissions.models import BotSeat
from submissions.rules import check_suspension


def record_bot_seats(sender: Any, *, match: Match, seats: list[Any], played: Any, **kwargs: Any) -> None:
    logs = getattr(played, "seat_logs", ())
    if not logs:
        return
    players = {seat.seat: seat.player_id for seat in seats}
    for log in logs:
        if log.version_id is None:
            continue
        BotSeat.objects.update_or_create(
            match=match,
            seat=log.seat,
            defaults={
                "player_id": players[log.seat],
                "version_id": log.version_id,
                "played": True,
                "forfeited": log.forfeit_reason is not None,
                "forfeit_reason": log.forfeit_reason or "",
                "moves": log.moves,
                "stderr": log.stderr,
            },
        )
    if match.kind == Match.Kind.ARENA:
        for log in logs:
            if log.version_id is not None:
                check_suspension(log.version_id)
