"""What the state endpoint answers: one seat's view of a table, never anything hidden from it."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.part_du_chef.placing import placings
from play import legal
from play.engine import TableState


def snapshot(table: TableState) -> dict[str, Any]:
    live, state, seat = table.live, table.state, table.seat
    match = live.match
    now = timezone.now()
    seconds_left = None
    if live.deadline is not None:
        seconds_left = max(0.0, round((live.deadline - now).total_seconds(), 1))
    # Spectators see the public view, which is the same from every seat but for "seat" itself.
    observation = state.observation(seat if seat is not None else 0).to_json()
    if seat is None:
        observation["seat"] = None
    finished = match.status == "finished"
    return {
        "match": match.id,
        "game": match.game,
        "kind": match.kind,
        "rated": match.rated,
        "status": match.status,
        "seat": seat,
        "turn": live.turn,
        "to_act": live.to_act,
        "your_turn": seat is not None and live.to_act == seat and not live.out[seat],
        "deadline": live.deadline.isoformat() if live.deadline else None,
        "seconds_left": seconds_left,
        "players": [
            {
                "seat": index,
                "id": player.id,
                "name": player.name,
                "kind": player.kind,
                "timeouts": live.timeouts[index],
                "forfeited": bool(live.out[index]),
            }
            for index, player in enumerate(table.players)
        ],
        "observation": observation,
        "legal": legal.choices(state, seat) if seat is not None and not live.out[seat] else None,
        "result": _result(live.record, live.out) if finished else None,
    }


def _result(record: dict[str, Any], out: list[bool]) -> dict[str, Any]:
    """The scores, and as ranks the arena's placings (a forfeiter below every other), as stored on the seats."""
    scores = record.get("scores") or []
    totals = [int(score["total"]) for score in scores]
    return {"scores": scores, "ranks": list(placings(totals, [bool(flag) for flag in out]))}
