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

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from arena.models import Match, MatchSeat

OVER = (Match.Status.FINISHED, Match.Status.FAILED)

# (ids of matches that are over) -> {match id: why its secrets stay held back}, for those that must.
# A feature whose matches share their deal with others registers one (tournaments, in `ready()`).
HoldBack = Callable[[Sequence[int]], dict[int, str]]
_hold_backs: dict[str, HoldBack] = {}


def register_hold_back(name: str, hold_back: HoldBack) -> None:
    """Add (or replace, on a second ready()) a reason a finished match's secrets may stay hidden."""
    _hold_backs[name] = hold_back


def _not_over(match_id: int, status: str) -> str:
    return f"match {match_id} has no record yet (status {status}): its seed and record are published when it is over"


def held_back_reasons(matches: Iterable[Match]) -> dict[int, str | None]:
    """Per match id: None when its secret fields may be shown to anyone, else the reason they are not.

    One query per registered hold-back at most, whatever the number of matches: lists call it once per page.
    """
    reasons: dict[int, str | None] = {}
    over: list[int] = []
    for match in matches:
        if match.status in OVER:
            reasons[match.id] = None
            over.append(match.id)
        else:
            reasons[match.id] = _not_over(match.id, match.status)
    if over:
        for hold_back in _hold_backs.values():
            reasons.update(hold_back(over))
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
