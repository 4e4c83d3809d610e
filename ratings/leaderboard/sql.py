"""The leaderboard's SQL backend: the same answers as the index, from PostgreSQL, when Redis is not ready.

Rows are read from the (game[, kind], rating desc, player id) indexes. Ranks are exact counts, one
formula (`_AHEAD`): the players in higher rating buckets (ratings.buckets keeps one row per rating
point; the histogram is read once per query, however many points) plus the players above within
the bucket, an index range of at most a few thousand entries, plus the ties with a lower player id.
Deep pages jump to their first bucket the same way instead of skipping rows.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection
from django.db.models import QuerySet, Sum

from ratings.models import Rating, RatingBucket

# Below this offset, skipping index entries is cheaper than reading the histogram.
DIRECT_OFFSET = 2_000

# For each (rating, player id): the players ahead of it. The histogram is read once, into its buckets
# in ascending order and, for each, the players in the buckets above it; each point finds its bucket
# there by binary search (width_bucket: the last bucket not above the point's, 0 below them all), then
# adds one bucket's index range above it and the ties with a lower player id. One query for a page's
# 100 interval ends, cheaper than a COUNT(*) of the board.
_AHEAD = """
WITH histogram AS (
    SELECT array_agg(bucket ORDER BY bucket) AS buckets, array_agg(above ORDER BY bucket) AS aboves,
        SUM(n)::bigint AS total
    FROM (
        SELECT bucket, n, (SUM(n) OVER (ORDER BY bucket DESC) - n)::bigint AS above
        FROM (SELECT b.bucket, SUM(b.count)::bigint AS n FROM ratings_ratingbucket b
            WHERE b.game = %(game)s {bucket_kind} GROUP BY b.bucket) AS counts
    ) AS running
)
SELECT v.position,
    COALESCE(h.aboves[width_bucket(FLOOR(v.rating)::integer, h.buckets)], h.total, 0)
    + (SELECT COUNT(*) FROM ratings_rating o WHERE o.game = %(game)s {other_kind}
        AND o.rating > v.rating AND o.rating < FLOOR(v.rating) + 1)
    + (SELECT COUNT(*) FROM ratings_rating o WHERE o.game = %(game)s {other_kind}
        AND o.rating = v.rating AND o.player_id < v.player_id)
FROM unnest(%(ratings)s::float8[], %(players)s::bigint[]) WITH ORDINALITY AS v(rating, player_id, position)
CROSS JOIN histogram h
ORDER BY v.position
"""


def board(game: str, kind: str | None = None) -> QuerySet[Rating]:
    rows = Rating.objects.filter(game=game)
    if kind:
        rows = rows.filter(kind=kind)
    return rows.order_by("-rating", "player_id")


def size(game: str, kind: str | None) -> int:
    buckets = RatingBucket.objects.filter(game=game)
    if kind:
        buckets = buckets.filter(kind=kind)
    return int(buckets.aggregate(total=Sum("count"))["total"] or 0)


def ahead(game: str, kind: str | None, points: Sequence[tuple[float, int]]) -> list[int]:
    """For each (rating, player id), how many players are ahead of it: a higher rating, or the same
    rating and a lower player id. With player id 0, how many have a higher rating. One query."""
    if not points:
        return []
    sql = _AHEAD.format(
        bucket_kind="AND b.kind = %(kind)s" if kind else "", other_kind="AND o.kind = %(kind)s" if kind else ""
    )
    params = {
        "game": game,
        "kind": kind,
        "ratings": [float(rating) for rating, _ in points],
        "players": [int(player_id) for _, player_id in points],
    }
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [int(count) for _, count in cursor.fetchall()]


def _bucket_at(game: str, kind: str | None, offset: int) -> tuple[int, int] | None:
    """The bucket holding the row at `offset` (0-based, best first) and how many rows come before it.

    The running sum is taken by the database, which returns one row rather than the histogram.
    """
    kind_filter = "AND kind = %s" if kind else ""
    params: list[str | int] = [game] + ([kind] if kind else []) + [offset]
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT bucket, through - n FROM (
                SELECT bucket, SUM(count) AS n, SUM(SUM(count)) OVER (ORDER BY bucket DESC) AS through
                FROM ratings_ratingbucket WHERE game = %s {kind_filter} GROUP BY bucket
            ) AS running
            WHERE through > %s ORDER BY bucket DESC LIMIT 1
            """,
            params,
        )
        row = cursor.fetchone()
    return None if row is None else (int(row[0]), int(row[1]))


def page(game: str, kind: str | None, offset: int, count: int) -> list[tuple[int, Rating]]:
    """(rank, row with its player) at [offset, offset + count), best first."""
    rows = board(game, kind)
    skip = offset
    if offset >= DIRECT_OFFSET:
        # Find the bucket holding the page's first row; count only from there.
        found_bucket = _bucket_at(game, kind, offset)
        if found_bucket is not None:
            bucket, before = found_bucket
            rows = rows.filter(rating__lt=bucket + 1)
            skip = offset - before
    # Two steps: the page's keys from the index alone, then those rows with their players.
    keys = list(rows.values_list("id", flat=True)[skip : skip + count])
    found = {row.id: row for row in Rating.objects.filter(id__in=keys).select_related("player")}
    return [(offset + position + 1, found[key]) for position, key in enumerate(keys) if key in found]


def row_of(game: str, kind: str | None, player_id: int) -> Rating | None:
    rows = Rating.objects.select_related("player").filter(game=game, player_id=player_id)
    if kind:
        rows = rows.filter(kind=kind)
    return rows.first()


def neighbours(row: Rating, kind: str | None, count: int) -> tuple[list[Rating], list[Rating]]:
    """Up to `count` rows just above and just below `row`, best first."""
    rows = board(game=row.game, kind=kind).select_related("player")
    above = list(rows.filter(rating=row.rating, player_id__lt=row.player_id).order_by("-player_id")[:count])
    if len(above) < count:
        above += list(rows.filter(rating__gt=row.rating).order_by("rating", "-player_id")[: count - len(above)])
    below = list(rows.filter(rating=row.rating, player_id__gt=row.player_id).order_by("player_id")[:count])
    if len(below) < count:
        below += list(rows.filter(rating__lt=row.rating)[: count - len(below)])
    return above[::-1], below


def found(game: str, kind: str | None, player_ids: Sequence[int], count: int) -> list[Rating]:
    """The rows of these players on the board, best first, at most `count`."""
    return list(board(game, kind).filter(player_id__in=list(player_ids)).select_related("player")[:count])
