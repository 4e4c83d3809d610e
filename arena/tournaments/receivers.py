"""When a tournament's match commits, look at the tournament once that commit is done."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction

from arena.models import Match


def tournament_match_done(sender: Any, *, match: Match, **kwargs: Any) -> None:
    from arena.tournaments.models import TournamentGame
    from arena.tournaments.tasks import advance_tournament

    tournament_id = TournamentGame.objects.filter(match=match).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        return
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    transaction.on_commit(lambda: advance_tournament.apply_async((tournament_id,), queue=queue))
