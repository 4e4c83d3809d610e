"""Leaderboard reads that stay fast with a million rated players.

Rows are read from the (game[, kind], rating desc, player id) indexes. Ranks are exact counts: the
players in higher rating buckets (ratings.buckets keeps one row per rating point) plus the players
ahead within one's own bucket, an index range of at most a few thousand entries. Ties on rating go to
the lower player id. Deep pages jump to their first bucket the same way instead of skipping rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import QuerySet, Sum

from ratings.buckets import bucket_of
from ratings.models import Rating, RatingBucket

# Below this offset, skipping index entries is cheaper than reading the histogram.
DIRECT_OFFSET = 2_000


def board(game: str, kind: str | None = None) -> QuerySet[Rating]:
    rows = Rating.objects.filter(game=game)
    if kind:
        rows = rows.filter(kind=kind)
    return rows.order_by("-rating", "player_id")


def _buckets(game: str, kind: str | None) -> QuerySet[RatingBucket]:
    rows = RatingBucket.objects.filter(game=game)
    if kind:
        rows = rows.filter(kind=kind)
    return rows


def board_size(game: str, kind: str | None = None) -> int:
    return int(_buckets(game, kind).aggregate(total=Sum("count"))["total"] or 0)


def _bucket_at(game: str, kind: str | None, offset: int) -> tuple[int, int] | None:
    """The bucket holding the row at `offset` (0-based, best first) and how many rows come before it.

    The running sum is taken by the database, which returns one row rather than the histogram.
    """
    kind_filter = "AND kind = %s" if kind else ""
    params: list[object] = [game] + ([kind] if kind else []) + [offset]
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


@dataclass(frozen=True)
class Ranked:
    rank: int
    rating: Rating


def page(game: str, kind: str | None, number: int, size: int) -> list[Ranked]:
    offset = (number - 1) * size
    rows = board(game, kind)
    skip = offset
    if offset >= DIRECT_OFFSET:
        # Find the bucket holding the page's first row; count only from there.
        found_bucket = _bucket_at(game, kind, offset)
        if found_bucket is not None:
            bucket, ahead = found_bucket
            rows = rows.filter(rating__lt=bucket + 1)
            skip = offset - ahead
    # Two steps: the page's keys from the index alone, then those rows with their players.
    keys = list(rows.values_list("id", flat=True)[skip : skip + size])
    found = {row.id: row for row in Rating.objects.filter(id__in=keys).select_related("player")}
    return [Ranked(offset + index + 1, found[key]) for index, key in enumerate(keys) if key in found]


def rank_of(row: Rating, kind: str | None = None) -> int:
    bucket = bucket_of(row.rating)
    higher = _buckets(row.game, kind).filter(bucket__gt=bucket).aggregate(total=Sum("count"))["total"] or 0
    rows = board(row.game, kind)
    in_bucket = rows.filter(rating__gt=row.rating, rating__lt=bucket + 1).count()
    tied_before = rows.filter(rating=row.rating, player_id__lt=row.player_id).count()
    return int(higher) + in_bucket + tied_before + 1


def neighbours(row: Rating, rank: int, count: int, kind: str | None = None) -> tuple[list[Ranked], list[Ranked]]:
    """Up to `count` players just above and just below `row`, best first."""
    rows = board(game=row.game, kind=kind).select_related("player")
    above = list(rows.filter(rating=row.rating, player_id__lt=row.player_id).order_by("-player_id")[:count])
    if len(above) < count:
        above += list(rows.filter(rating__gt=row.rating).order_by("rating", "-player_id")[: count - len(above)])
    below = list(rows.filter(rating=row.rating, player_id__gt=row.player_id).order_by("player_id")[:count])
    if len(below) < count:
        below += list(rows.filter(rating__lt=row.rating)[: count - len(below)])
    return (
        [Ranked(rank - index - 1, other) for index, other in enumerate(above)][::-1],
        [Ranked(rank + index + 1, other) for index, other in enumerate(below)],
    )
