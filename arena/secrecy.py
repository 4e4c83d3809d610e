"""The one rule for a match's secret fields: may they be shown now, and if not, why not.

A match's seed gives every pizza of its game (`games.part_du_chef.deck.deal`), and its record holds
all five pizzas; what a bot wrote while it played (its stderr, its errors) may name the pizzas it saw.
Anyone holding one of these while the game runs plays with perfect foresight. So they are shown only
once the match is over (finished or failed), and for a duplicate tournament deal, whose seed every
table of the deal shares, only once every table of that deal is over.

Every answer that carries them (the matches API, the tournaments' match lists, bot owners' seat logs,
the web pages, the admin) asks `held_back_reasons` or `may_show_secrets` here; nothing else decides.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q

from arena.models import Match, MatchSeat
from arena.tournaments.models import TournamentGame

OVER = (Match.Status.FINISHED, Match.Status.FAILED)


def _not_over(match_id: int, status: str) -> str:
    return f"match {match_id} has no record yet (status {status}): its seed and record are published when it is over"


def held_back_reasons(matches: Iterable[Match]) -> dict[int, str | None]:
    """Per match id: None when its secret fields may be shown to anyone, else the reason they are not.

    Two queries at most, whatever the number of matches: lists call it once per page.
    """
    reasons: dict[int, str | None] = {}
    over: list[int] = []
    for match in matches:
        if match.status in OVER:
            reasons[match.id] = None
            over.append(match.id)
        else:
            reasons[match.id] = _not_over(match.id, match.status)
    if not over:
        return reasons
    deal_of = {
        row["match_id"]: (row["tournament_id"], row["round"], row["table"], row["deal"])
        for row in TournamentGame.objects.filter(match_id__in=over).values(
            "match_id", "tournament_id", "round", "table", "deal"
        )
    }
    if not deal_of:
        return reasons
    same_deal = Q()
    for tournament, round_number, table, deal in set(deal_of.values()):
        same_deal |= Q(tournament_id=tournament, round=round_number, table=table, deal=deal)
    playing: dict[tuple[int, int, int, int], int] = {}
    for row in (
        TournamentGame.objects.filter(same_deal)
        .exclude(match__status__in=OVER)
        .values_list("tournament_id", "round", "table", "deal")
    ):
        playing[row] = playing.get(row, 0) + 1
    for match_id, key in deal_of.items():
        left = playing.get(key, 0)
        if left:
            tables = "table" if left == 1 else "tables"
            reasons[match_id] = (
                f"match {match_id} shares its deal with {left} {tables} of tournament {key[0]} still playing: "
                "its seed and record are published when every table of the deal is over"
            )
    return reasons


def held_back_reason(match: Match) -> str | None:
    return held_back_reasons([match])[match.id]


def _seated(user: Any, match: Match) -> bool:
    return MatchSeat.objects.filter(match_id=match.id, player__owner_id=user.pk).exists()


def may_show_secrets(match: Match, user: Any = None) -> bool:
    """Whether `match`'s seed, record and bot logs may be shown now.

    Public answers pass no user. The admin passes its user: staff who hold no seat at the match
    (through a person or a bot of theirs) may see a running match's secrets, to look into it.
    """
    if held_back_reason(match) is None:
        return True
    return bool(user is not None and getattr(user, "is_staff", False) and not _seated(user, match))
