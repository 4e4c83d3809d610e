"""Finding players by any part of their name, with their ranks.

The name is matched anywhere (ILIKE '%q%', served by the pg_trgm trigram GIN index of migration
web/0001); each found row's rank is counted in the same query the way `ratings.leaderboard.rank_of`
counts it: the rating buckets above its own, the rows above it in its bucket, and the ties before it.
"""

from __future__ import annotations

from django.db import connection
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


_RANKED_SQL = """
WITH found AS MATERIALIZED (
    SELECT r.* FROM ratings_rating r
    WHERE r.game = %(game)s {kind} AND r.player_id = ANY(%(ids)s)
    ORDER BY r.rating DESC, r.player_id LIMIT %(size)s
),
above AS MATERIALIZED (
    SELECT bucket, SUM(SUM(count)) OVER (ORDER BY bucket DESC) - SUM(count) AS higher
    FROM ratings_ratingbucket WHERE game = %(game)s {kind} GROUP BY bucket
)
SELECT f.*, p.name AS player_name, p.kind AS player_kind,
    1 + COALESCE(a.higher, 0)
    + (SELECT COUNT(*) FROM ratings_rating o WHERE o.game = f.game {other_kind}
        AND o.rating > f.rating AND o.rating < FLOOR(f.rating) + 1)
    + (SELECT COUNT(*) FROM ratings_rating o WHERE o.game = f.game {other_kind}
        AND o.rating = f.rating AND o.player_id < f.player_id) AS position
FROM found f JOIN arena_player p ON p.id = f.player_id
LEFT JOIN above a ON a.bucket = FLOOR(f.rating)::integer
ORDER BY f.rating DESC, f.player_id
"""


def ranked(game: str, kind: str | None, player_ids: list[int], size: int) -> list[leaderboard.Ranked]:
    """The ratings of these players, best first, each with its rank on the board (one query)."""
    if connection.vendor == "postgresql":
        return _ranked_postgres(game, kind, player_ids, size)
    return _ranked_portable(game, kind, player_ids, size)


def _ranked_postgres(game: str, kind: str | None, player_ids: list[int], size: int) -> list[leaderboard.Ranked]:
    # The page's rows are picked first (from the players' own index, never by walking the board),
    # then each one's rank: the buckets above it from one running sum, its bucket's rows above it,
    # and the ties before it.
    sql = _RANKED_SQL.format(
        kind="AND kind = %(kind)s" if kind else "", other_kind="AND o.kind = %(kind)s" if kind else ""
    )
    out = []
    for row in Rating.objects.raw(sql, {"game": game, "kind": kind, "ids": list(player_ids), "size": size}):
        # player_name, player_kind and position are columns of the raw query, unknown to the model's type.
        row.player = Player(id=row.player_id, name=row.player_name, kind=row.player_kind)  # type: ignore[attr-defined]
        out.append(leaderboard.Ranked(int(row.position), row))  # type: ignore[attr-defined]
    return out


def _ranked_portable(game: str, kind: str | None, player_ids: list[int], size: int) -> list[leaderboard.Ranked]:
    """The same for SQLite (the fallback without PostgreSQL), through the ORM."""
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
