"""Leaderboard reads that stay fast with a million rated players.

Pages and ranks are read from the (game, rating desc, player id) indexes; a rank is one plus the
number of players ahead, counted with two index range scans. Ties on rating go to the lower id.
The total count of a board is cached for a few seconds: an exact count walks the whole index.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import QuerySet

from ratings.models import Rating

COUNT_CACHE_SECONDS = 10


def board(game: str, kind: str | None = None) -> QuerySet[Rating]:
    rows = Rating.objects.filter(game=game)
    if kind:
        rows = rows.filter(kind=kind)
    return rows.order_by("-rating", "player_id")


def _count_key(game: str, kind: str | None) -> str:
    return f"leaderboard-count:{game}:{kind or 'all'}"


def forget_counts(game: str) -> None:
    """Drop the cached sizes of a game's boards (after a bulk load, say)."""
    cache.delete_many([_count_key(game, kind) for kind in (None, "bot", "human")])


def board_size(game: str, kind: str | None = None) -> int:
    key = _count_key(game, kind)
    size = cache.get(key)
    if size is None:
        size = board(game, kind).count()
        cache.set(key, size, COUNT_CACHE_SECONDS)
    return int(size)


@dataclass(frozen=True)
class Ranked:
    rank: int
    rating: Rating


def page(game: str, kind: str | None, number: int, size: int) -> list[Ranked]:
    offset = (number - 1) * size
    rows = board(game, kind).select_related("player")[offset : offset + size]
    return [Ranked(offset + index + 1, row) for index, row in enumerate(rows)]


def rank_of(row: Rating, kind: str | None = None) -> int:
    ahead = board(game=row.game, kind=kind)
    better = ahead.filter(rating__gt=row.rating).count()
    tied_before = ahead.filter(rating=row.rating, player_id__lt=row.player_id).count()
    return better + tied_before + 1


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
