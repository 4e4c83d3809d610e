"""The bot owners' page: their bots, versions, validation results and logs, latency and forfeits."""

from __future__ import annotations

import json
import statistics
from typing import Any

from django.db.models import Count, F, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from arena.models import ArenaEntry
from arena.seating import seat_summary
from arena.secrecy import held_back_reasons
from matchmaking.status import explain
from ratings.models import Rating
from submissions.headtohead import head_to_head
from submissions.models import BotComparison, BotSeat, SubmittedBot
from submissions.serializers import queue_place

RECENT_SEATS = 200
SHOWN_SEATS = 10
SHOWN_COMPARISONS = 5


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


# The Validation cell's one line; the rest of the reason, a compiler's output, waits behind a disclosure.
SUMMARY_CHARS = 160


def validation_summary(reason: str, build_log: str) -> tuple[str, str]:
    """A version's validation reason as the page shows it: its first line, short, and what more there is
    to read (the build log when the build failed, else the rest of the reason; "" when nothing)."""
    lines = reason.strip().splitlines()
    first = lines[0].strip() if lines else ""
    summary = first if len(first) <= SUMMARY_CHARS else first[: SUMMARY_CHARS - 1].rstrip() + "…"
    if build_log:
        return summary, build_log
    return summary, reason.strip() if reason.strip() != summary else ""


def _hold_back_logs(seats: list[BotSeat]) -> None:
    """What a bot wrote may name the pizzas it saw: blank while the secrecy rule holds its match back."""
    reasons = held_back_reasons(seat.match for seat in seats)
    for seat in seats:
        if reasons[seat.match_id] is not None:
            seat.moves, seat.stderr, seat.forfeit_reason = [], "", ""


def latest_comparisons(ids: list[int]) -> dict[int, list[BotComparison]]:
    """Each bot's newest comparisons, in one query for all the bots of the page."""
    newest = Window(RowNumber(), partition_by=[F("bot_id")], order_by=[F("created_at").desc(), F("id").desc()])
    rows = (
        BotComparison.objects.filter(bot_id__in=ids)
        .annotate(newest=newest)
        .filter(newest__lte=SHOWN_COMPARISONS)
        .select_related("version", "against__bot__player")
        .order_by("bot_id", "newest")
    )
    out: dict[int, list[BotComparison]] = {bot_id: [] for bot_id in ids}
    for row in rows:
        out[row.bot_id].append(row)
    return out


def owner_bots(user: Any) -> list[dict[str, Any]]:
    bots = list(
        SubmittedBot.objects.filter(player__owner=user)
        .select_related("player")
        .prefetch_related("versions")
        .order_by("player_id")
    )
    ids = [bot.player_id for bot in bots]
    ratings = {row.player_id: row for row in Rating.objects.filter(player_id__in=ids)}
    totals = {
        row["player_id"]: row
        for row in BotSeat.objects.filter(player_id__in=ids, played=True)
        .values("player_id")
        .annotate(seats=Count("id"), forfeits=Count("id", filter=Q(forfeited=True)))
    }
    recent: dict[int, list[BotSeat]] = {bot_id: [] for bot_id in ids}
    for seat in (
        BotSeat.objects.filter(player_id__in=ids, played=True)
        .select_related("version", "match")
        .defer("match__record")
        .order_by("-match_id")[: RECENT_SEATS * max(1, len(ids))]
    ):
        if len(recent[seat.player_id]) < RECENT_SEATS:
            recent[seat.player_id].append(seat)
    _hold_back_logs([seat for seats in recent.values() for seat in seats])
    entries = list(ArenaEntry.objects.filter(player_id__in=ids, active=True).select_related("player", "current_match"))
    waits = explain(entries, timezone.now())
    arena: dict[int, list[dict[str, Any]]] = {bot_id: [] for bot_id in ids}
    for entry in entries:
        arena[entry.player_id].append({"entry": entry, "wait": waits[entry.id]})
    comparisons = latest_comparisons(ids)
    out = []
    for bot in bots:
        seats = recent[bot.player_id]
        latencies = [
            float(move["latency_ms"])
            for seat in seats
            for move in seat.moves
            if isinstance(move, dict) and isinstance(move.get("latency_ms"), int | float)
        ]
        total = totals.get(bot.player_id, {"seats": 0, "forfeits": 0})
        versions = sorted(bot.versions.all(), key=lambda version: -version.number)
        for version in versions:
            version.queue_place = queue_place(version)  # type: ignore[attr-defined]  # shown by the page only
            version.log_text = json.dumps(version.log, indent=1, ensure_ascii=False)[:20000]
            # The compiler's messages of a build that failed (sandbox.build), shown as they were written.
            version.build_log = next(  # type: ignore[attr-defined]  # shown by the page only
                (str(entry["build"]) for entry in version.log if isinstance(entry, dict) and entry.get("build")), ""
            )
            summary, details = validation_summary(version.reason, version.build_log)  # type: ignore[attr-defined]
            version.summary, version.details = summary, details  # type: ignore[attr-defined]  # shown by the page only
        status = bot.status_given(versions)
        out.append(
            {
                "player": bot.player,
                "submission": bot,
                "status": status,
                "rating": ratings.get(bot.player_id),
                "versions": versions,
                "recent": seats[:SHOWN_SEATS],
                # Why each arena entry waits and about how long (matchmaking.status).
                "arena": arena[bot.player_id],
                "head_to_head": head_to_head(bot.player_id),
                # Games and mean placing per seat: fair seats, shown (arena.seating).
                "seats": seat_summary(bot.player_id),
                "comparisons": comparisons[bot.player_id],
                "stats": {
                    "seats": total["seats"],
                    "forfeits": total["forfeits"],
                    "forfeit_rate": 100.0 * total["forfeits"] / total["seats"] if total["seats"] else 0.0,
                    "moves": len(latencies),
                    "p50": statistics.median(latencies) if latencies else None,
                    "p95": _percentile(latencies, 0.95) if latencies else None,
                    "max": max(latencies) if latencies else None,
                },
            }
        )
    return out
