"""Finding players by any part of their name, with their ranks.

The name is matched anywhere (ILIKE '%q%', served by the pg_trgm trigram GIN index of migration
web/0001); each found row's rank is counted in the same query the way `ratings.leaderboard.rank_of`
counts it: the rating buckets above its own, the rows above it in its bucket, and the ties before it.
"""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce, Floor

from arena.models import Player
from ratings import leaderboard
from ratings.models import Rating, RatingBucket


def matching_ids(query: str, limit: int) -> list[int]:
    """Ids of players whose name contains `query` (any case), at most `limit` of them."""
    return list(Player.objects.filter(name__icontains=query).order_by().values_list("id", flat=True)[:limit])


def _count(rows: QuerySet[Rating] | QuerySet[RatingBucket], total: Count | Sum) -> Coalesce:
    counted = rows.order_by().values("game").annotate(n=total).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def ranked(game: str, kind: str | None, player_ids: list[int], size: int) -> list[leaderboard.Ranked]:
    """The ratings of these players, best first, each with its rank on the board (one query)."""
    buckets = RatingBucket.objects.filter(game=game)
    rows = Rating.objects.filter(game=game)
    if kind:
        buckets = buckets.filter(kind=kind)
        rows = rows.filter(kind=kind)
    above = _count(buckets.filter(bucket__gt=Floor(OuterRef("rating"))), Sum("count"))
    in_bucket = _count(
        rows.filter(rating__gt=OuterRef("rating"), rating__lt=Floor(OuterRef("rating")) + 1), Count("id")
    )
    tied = _count(rows.filter(rating=OuterRef("rating"), player_id__lt=OuterRef("player_id")), Count("id"))
    found = (
        leaderboard.board(game, kind)
        .filter(player_id__in=player_ids)
        .select_related("player")
        .annotate(position=above + in_bucket + tied + 1)
    )
    return [leaderboard.Ranked(int(row.position), row) for row in found[:size]]
