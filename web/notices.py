"""What a signed-in person is told on every page: invitations to friendly tables (a rematch is one),
the tables they host and whom those wait for, and a guest's decline.

Read when a page asks (the notices bar fetches it at load and whenever the person's stream says the
lobby changed); no page pays for it while drawing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from arena.models import Player
from play.models import FriendlyTable

# A decline is told for this long after it happened.
DECLINE_SHOWN = timedelta(minutes=15)


def clock_label(turn_seconds: int, bank_seconds: int) -> str:
    """A table's clock in words: "60 s a decision", "30 s a decision + 3 min bank"."""
    per = (
        _("%(n)d s a decision") % {"n": turn_seconds}
        if turn_seconds < 120
        else _("%(n)d min a decision") % {"n": turn_seconds // 60}
    )
    if bank_seconds:
        return _("%(per)s + %(n)d min bank") % {"per": per, "n": bank_seconds // 60}
    return per


def invitation(table: FriendlyTable, player: Player) -> dict[str, Any]:
    """One open table as the person sees it: from whom, with whom, whom it still waits for."""
    seats = list(table.seats.all())
    mine = next(seat for seat in seats if seat.player_id == player.id)
    return {
        "table": table,
        "mine": mine,
        "hosting": table.host_id == player.id,
        "others": [seat for seat in seats if seat.player_id != table.host_id],
        "waiting_for": [seat.player.name for seat in seats if not seat.accepted],
        "clock": clock_label(table.turn_seconds, table.bank_seconds),
    }


def for_player(player: Player) -> dict[str, Any]:
    open_tables = (
        FriendlyTable.objects.filter(seats__player=player, status=FriendlyTable.Status.OPEN)
        .select_related("host")
        .prefetch_related("seats__player")
        .order_by("-id")[:10]
    )
    declined = (
        FriendlyTable.objects.filter(
            seats__player=player,
            status=FriendlyTable.Status.CANCELLED,
            closed_at__gte=timezone.now() - DECLINE_SHOWN,
            declined_by__isnull=False,
        )
        .exclude(declined_by=player)
        .select_related("declined_by", "host")
        .order_by("-id")[:5]
    )
    return {
        "invitations": [invitation(table, player) for table in open_tables],
        "declined": list(declined),
    }
