"""A bot's head-to-head table: per opponent, rated games together, wins and the mean placing.

Placings are the match core's stored ones (`MatchSeat.rank`, arena.placing): a forfeiter is below
every seat that did not forfeit, so a forfeit counts last. One grouped query per bot.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Avg, Count, F, OuterRef, Q, Subquery

from arena.models import Match, MatchSeat


def head_to_head(player_id: int) -> list[dict[str, Any]]:
    """Per opponent (most games first): `games`, `wins` (placing 1), `mean_placing` of this bot in
    those games, `above` (games it placed above that opponent) and `opponent_mean_placing`."""
    mine = MatchSeat.objects.filter(match_id=OuterRef("match_id"), player_id=player_id).values("rank")[:1]
    rows = (
        MatchSeat.objects.filter(
            match__seats__player_id=player_id,
            match__status=Match.Status.FINISHED,
            match__rated=True,
        )
        .exclude(player_id=player_id)
        .annotate(mine=Subquery(mine))
        # A seat without a stored placing (a match committed before placings were stored) tells nothing.
        .filter(mine__isnull=False, rank__isnull=False)
        .values("player_id", "player__name", "player__kind")
        .annotate(
            games=Count("match_id", distinct=True),
            wins=Count("match_id", filter=Q(mine=1), distinct=True),
            mean_placing=Avg("mine"),
            above=Count("match_id", filter=Q(mine__lt=F("rank")), distinct=True),
            opponent_mean_placing=Avg("rank"),
        )
        .order_by("-games", "player_id")
    )
    return [
        {
            "opponent": row["player_id"],
            "name": row["player__name"],
            "kind": row["player__kind"],
            "games": row["games"],
            "wins": row["wins"],
            "mean_placing": round(float(row["mean_placing"]), 2),
            "above": row["above"],
            "opponent_mean_placing": round(float(row["opponent_mean_placing"]), 2),
        }
        for row in rows
    ]
