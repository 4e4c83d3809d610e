"""Per-point rating histogram kept exactly in step with the ratings, for fast exact ranks."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

from django.db import connection


def bucket_of(rating: float) -> int:
    return math.floor(rating)


def move(game: str, moves: Iterable[tuple[str, float | None, float]]) -> None:
    """Apply (kind, rating before or None when newly rated, rating after) to the histogram."""
    statement = move_statement(game, moves)
    if statement is not None:
        with connection.cursor() as cursor:
            cursor.execute(*statement)


def move_statement(game: str, moves: Iterable[tuple[str, float | None, float]]) -> tuple[str, list[Any]] | None:
    """The one upsert of `move`, to run with other writes (`arena.rows.run_together`); None if nothing moves.

    Rows are upserted in ascending (kind, bucket) order: concurrent matches touching the same
    buckets queue up rather than deadlock (every match takes its player locks before these).
    """
    deltas: Counter[tuple[str, int]] = Counter()
    for kind, before, after in moves:
        if before is not None:
            deltas[(kind, bucket_of(before))] -= 1
        deltas[(kind, bucket_of(after))] += 1
    changes = sorted((key, delta) for key, delta in deltas.items() if delta)
    if not changes:
        return None
    values = ", ".join(["(%s, %s, %s, %s)"] * len(changes))
    params: list[Any] = []
    for (kind, bucket), delta in changes:
        params += [game, kind, bucket, delta]
    return (
        "INSERT INTO ratings_ratingbucket (game, kind, bucket, count) VALUES "
        + values
        + " ON CONFLICT (game, kind, bucket) DO UPDATE SET count = ratings_ratingbucket.count + EXCLUDED.count",
        params,
    )
