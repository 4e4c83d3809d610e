"""Leaderboard reads that stay fast with a million rated players.

They come from the Redis index of ratings.standings when it is ready: a page is a range of ranks,
a rank one lookup, each O(log n), with the lines (name, games, provisional games left) kept beside
them, so the API reads no database row. When the index is not ready (a fresh or flushed Redis) the
same answers come from PostgreSQL, as below, and a rebuild of the index is asked for.

In PostgreSQL, rows are read from the (game[, kind], rating desc, player id) indexes. Ranks are exact
counts: the players in higher rating buckets (ratings.buckets keeps one row per rating point) plus
the players ahead within one's own bucket, an index range of at most a few thousand entries. Deep
pages jump to their first bucket the same way instead of skipping rows. Ties on rating go to the
lower player id, in both places.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import QuerySet, Sum

from arena.dispatch import send_now
from common.task_names import TaskName
from ratings import standings
from ratings.buckets import bucket_of
from ratings.models import Rating, RatingBucket, is_provisional

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


def _send_rebuild(game: str) -> None:
    send_now(TaskName.REBUILD_LEADERBOARD, (game,))


def _index_missing(game: str) -> None:
    standings.request_rebuild(game, _send_rebuild)


def board_size(game: str, kind: str | None = None) -> int:
    indexed = standings.size(game, kind)
    if indexed is not None:
        return indexed
    _index_missing(game)
    return _sql_board_size(game, kind)


def _sql_board_size(game: str, kind: str | None) -> int:
    return int(_buckets(game, kind).aggregate(total=Sum("count"))["total"] or 0)


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


@dataclass(frozen=True)
class Ranked:
    rank: int
    rating: Rating


def page(game: str, kind: str | None, number: int, size: int) -> list[Ranked]:
    """One page of Rating rows (with their players), best first."""
    offset = (number - 1) * size
    order = standings.page_lines(game, kind, offset, size)
    if order is not None:
        ids = [line.player_id for line in order.lines]
        found = {
            row.player_id: row for row in Rating.objects.filter(game=game, player_id__in=ids).select_related("player")
        }
        return [Ranked(line.rank, found[line.player_id]) for line in order.lines if line.player_id in found]
    _index_missing(game)
    return _sql_page(game, kind, offset, size)


def _sql_page(game: str, kind: str | None, offset: int, size: int) -> list[Ranked]:
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
    found = standings.rank(row.game, kind, row.player_id)
    if found is not None:
        return found
    _index_missing(row.game)
    return _sql_rank_of(row, kind)


def _sql_rank_of(row: Rating, kind: str | None) -> int:
    bucket = bucket_of(row.rating)
    higher = _buckets(row.game, kind).filter(bucket__gt=bucket).aggregate(total=Sum("count"))["total"] or 0
    rows = board(row.game, kind)
    in_bucket = rows.filter(rating__gt=row.rating, rating__lt=bucket + 1).count()
    tied_before = rows.filter(rating=row.rating, player_id__lt=row.player_id).count()
    return int(higher) + in_bucket + tied_before + 1


def neighbours(row: Rating, rank: int, count: int, kind: str | None = None) -> tuple[list[Ranked], list[Ranked]]:
    """Up to `count` players just above and just below `row`, best first (from PostgreSQL)."""
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


# --- Plain rows for the API, read without model instances ---------------------------------------


@dataclass(frozen=True)
class Row:
    """One leaderboard line as the API shows it."""

    rank: int
    player_id: int
    name: str
    kind: str
    rating: float
    games: int
    provisional: bool


def _row_of(ranked: Ranked) -> Row:
    rating = ranked.rating
    return Row(
        ranked.rank,
        rating.player_id,
        rating.player.name,
        rating.player.kind,
        rating.rating,
        rating.games,
        rating.provisional,
    )


def _rows_of(lines: list[standings.Line]) -> list[Row]:
    return [
        Row(
            line.rank,
            line.player_id,
            line.name,
            line.kind,
            line.rating,
            line.games,
            is_provisional(line.games, line.provisional_left),
        )
        for line in lines
    ]


def page_rows(game: str, kind: str | None, number: int, size: int) -> tuple[int, list[Row]] | int:
    """The board's size and one page of lines; only the size when `number` is past the last page."""
    offset = (number - 1) * size
    order = standings.page_lines(game, kind, offset, size)
    if order is not None:
        if offset and offset >= order.count:
            return order.count
        return order.count, _rows_of(order.lines)
    _index_missing(game)
    count = _sql_board_size(game, kind)
    if offset and offset >= count:
        return count
    return count, [_row_of(ranked) for ranked in _sql_page(game, kind, offset, size)]


@dataclass(frozen=True)
class Standing:
    player: Row
    above: list[Row]
    below: list[Row]


def standing(game: str, kind: str | None, player_id: int, count: int) -> Standing | None:
    """A player's line with up to `count` lines above and below; None when not on this board."""
    found = standings.around(game, kind, player_id, count)
    if isinstance(found, standings.Lines):
        rows = _rows_of(found.lines)
        mine = [index for index, row in enumerate(rows) if row.player_id == player_id]
        if mine:
            at = mine[0]
            return Standing(rows[at], rows[:at], rows[at + 1 :])
    result = _sql_standing(game, kind, player_id, count)
    if found is None or (found is False and result is not None):
        _index_missing(game)  # not ready, or missing a player the database has
    return result


def _sql_standing(game: str, kind: str | None, player_id: int, count: int) -> Standing | None:
    rows = Rating.objects.select_related("player").filter(game=game, player_id=player_id)
    if kind:
        rows = rows.filter(kind=kind)
    row = rows.first()
    if row is None:
        return None
    rank = _sql_rank_of(row, kind)
    above, below = neighbours(row, rank, count, kind)
    return Standing(_row_of(Ranked(rank, row)), [_row_of(r) for r in above], [_row_of(r) for r in below])
