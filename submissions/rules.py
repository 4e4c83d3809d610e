"""The arena's rules for submitted bots: who may enter, and suspension after too many forfeits."""

from __future__ import annotations

import math

from django.conf import settings
from django.utils import timezone

from arena.models import ArenaEntry, Match, Player
from submissions.models import BotSeat, BotVersion, SubmittedBot


def arena_refusal(player: Player) -> str | None:
    """Why this player may not enter the arena now, or None. Built-in bots always may."""
    if not player.is_submitted_bot:
        return None
    bot = SubmittedBot.objects.filter(pk=player.id).only("suspended_at", "suspension_reason", "retired_at").first()
    if bot is None:
        return None
    if bot.retired_at is not None:
        return f"bot {player.id} ({player.name}) is retired"
    if bot.suspended_at is not None:
        return (
            f"bot {player.id} ({player.name}) is suspended from the arena: {bot.suspension_reason} "
            "Upload a new version to lift the suspension."
        )
    return None


def forfeit_threshold() -> int:
    """Forfeits among the last ARENA_BOT_SUSPEND_WINDOW arena matches that suspend a bot."""
    window = int(settings.ARENA_BOT_SUSPEND_WINDOW)
    return max(1, math.ceil(float(settings.ARENA_BOT_SUSPEND_RATIO) * window))


def check_suspension(version_id: int) -> bool:
    """Suspend the bot if its active version forfeited too often in the arena. Returns True if so.

    Runs inside the transaction that commits an arena match. Only the version now active counts:
    a new version starts with a clean record.
    """
    version = BotVersion.objects.select_related("bot__player").filter(pk=version_id).defer("bundle", "log").first()
    if version is None or version.status != BotVersion.Status.ACTIVE or version.bot.suspended_at is not None:
        return False
    window = int(settings.ARENA_BOT_SUSPEND_WINDOW)
    recent = list(
        BotSeat.objects.filter(
            version_id=version_id, played=True, match__kind=Match.Kind.ARENA, match__status=Match.Status.FINISHED
        )
        .order_by("-match__finished_at", "-match_id")
        .values_list("forfeited", "forfeit_reason")[:window]
    )
    forfeits = [reason for forfeited, reason in recent if forfeited]
    threshold = forfeit_threshold()
    if len(forfeits) < threshold:
        return False
    reason = (
        f"version {version.number} forfeited {len(forfeits)} of its last {len(recent)} arena matches "
        f"(the limit is {threshold} of {window}); last forfeit: {forfeits[0]}."
    )
    suspended = SubmittedBot.objects.filter(pk=version.bot_id, suspended_at__isnull=True).update(
        suspended_at=timezone.now(), suspension_reason=reason
    )
    if suspended:
        ArenaEntry.objects.filter(player_id=version.bot_id, active=True).update(active=False)
    return bool(suspended)
