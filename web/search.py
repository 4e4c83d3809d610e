"""Finding players by any part of their name; their lines and ranks come from ratings.leaderboard.search.

The name is matched anywhere (ILIKE '%q%', served by the pg_trgm trigram GIN index of migration web/0001).
"""

from __future__ import annotations

from arena.models import Player


def matching_ids(query: str, limit: int) -> list[int]:
    """Ids of players whose name contains `query` (any case), at most `limit` of them."""
    return list(Player.objects.filter(name__icontains=query).order_by().values_list("id", flat=True)[:limit])
