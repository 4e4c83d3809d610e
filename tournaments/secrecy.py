"""A duplicate deal's secrets stay held back until every table playing that deal is over.

Every table of a deal shares its seed, so the first table to finish would otherwise publish the
pizzas of the tables still playing it. Registered with the match core's `arena.secrecy` in `ready()`.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Q

from arena.secrecy import OVER
from tournaments.models import TournamentGame

DealKey = tuple[int, int, int, int]


def deal_hold_backs(over: Sequence[int]) -> dict[int, str]:
    """For matches that are over: those whose deal another table of their tournament still plays."""
    deal_of: dict[int, DealKey] = {
        row["match_id"]: (row["tournament_id"], row["round"], row["table"], row["deal"])
        for row in TournamentGame.objects.filter(match_id__in=list(over)).values(
            "match_id", "tournament_id", "round", "table", "deal"
        )
    }
    if not deal_of:
        return {}
    same_deal = Q()
    for tournament, round_number, table, deal in set(deal_of.values()):
        same_deal |= Q(tournament_id=tournament, round=round_number, table=table, deal=deal)
    playing: dict[DealKey, int] = {}
    for row in (
        TournamentGame.objects.filter(same_deal)
        .exclude(match__status__in=OVER)
        .values_list("tournament_id", "round", "table", "deal")
    ):
        playing[row] = playing.get(row, 0) + 1
    reasons: dict[int, str] = {}
    for match_id, key in deal_of.items():
        left = playing.get(key, 0)
        if left:
            tables = "table" if left == 1 else "tables"
            reasons[match_id] = (
                f"match {match_id} shares its deal with {left} {tables} of tournament {key[0]} still playing: "
                "its seed and record are published when every table of the deal is over"
            )
    return reasons
