"""The arena matchmaker: each tick forms the tables of every pool (matchmaking.pool decides and seats).

Each (game, table size) holds two pools, the bots' and the people's, never seated together. Their
entries are locked for the tick (skip_locked: a second tick running at the same time leaves them
alone); each pool reads what its decision needs once (ratings, house bots, meetings, past seats).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from arena.models import ArenaEntry
from matchmaking.pool import Pool

__all__ = ["tick"]


def tick(now: datetime | None = None) -> list[int]:
    """Form every table that can be formed now; returns the ids of the matches created."""
    now = now or timezone.now()
    created: list[int] = []
    pools = (
        ArenaEntry.objects.filter(active=True)
        .values_list("game", "table_size")
        .distinct()
        .order_by("game", "table_size")
    )
    for game, size in list(pools):
        with transaction.atomic():
            entries = list(
                ArenaEntry.objects.select_for_update(skip_locked=True, of=("self",))
                .filter(active=True, game=game, table_size=size)
                .select_related("current_match", "player")
                .order_by("id")
            )
            for pool in Pool.pools_of(game, size, entries):
                created.extend(pool.tick(now))
    return created
