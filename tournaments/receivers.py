"""When tournament matches commit, look at their tournaments once that commit is done."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.models import Match
from tournaments.actions import dispatch_advance
from tournaments.models import TournamentGame


def tournament_matches_done(sender: Any, *, matches: Sequence[Match], **kwargs: Any) -> None:
    """One query for a play task's whole batch: most batches hold no tournament match at all."""
    tournaments = (
        TournamentGame.objects.filter(match__in=[match.pk for match in matches])
        .values_list("tournament_id", flat=True)
        .distinct()
    )
    for tournament_id in sorted(tournaments):
        dispatch_advance(tournament_id)
