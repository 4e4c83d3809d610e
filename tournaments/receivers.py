"""When a tournament's match commits, look at the tournament once that commit is done."""

from __future__ import annotations

from typing import Any

from arena.models import Match
from tournaments.actions import dispatch_advance
from tournaments.models import TournamentGame


def tournament_match_done(sender: Any, *, match: Match, **kwargs: Any) -> None:
    tournament_id = TournamentGame.objects.filter(match=match).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        return
    dispatch_advance(tournament_id)
