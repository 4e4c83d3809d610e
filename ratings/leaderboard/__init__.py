"""The leaderboard: one interface for every page, rank and search, whichever backend answers.

`size`, `page`, `rank`, `standing`, `search` and `lines` answer from the Redis index (`index`) when it is
ready: ranks are ZRANK + 1, no database row is read. When it is not (a fresh or flushed Redis), the
same answers come from PostgreSQL (`sql`), and a rebuild of the index is asked for: one rule,
`_index_or_sql`, for all of them. Ties on rating go
to the lower player id, in both backends.

Every line carries `interval`, the 95% interval of the rating (rating ± 1.96 deviation, the
deviation grown by the player's idle time), and `rank_interval`, the ranks the player would hold at
either end of it with everyone else in place: [1 + players above the high end, players above the
low end]. Both are counts from the backend, never a scan, and a page's are one round trip: one
script of ZCOUNTs, or one query of the SQL histogram (`sql.ahead`).

The index is written on commit by ratings.ledger (with the rating rows it writes) and by ratings.signals
(a rating row saved elsewhere, as by the admin, and a renamed player).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TypeAlias, TypeVar

from django.utils import timezone

from arena.dispatch import send_now
from common.task_names import TaskName
from ratings.elo import interval, is_provisional
from ratings.leaderboard import index, sql
from ratings.models import Rating, current_deviation

T = TypeVar("T")
U = TypeVar("U")


@dataclass(frozen=True)
class Row:
    """One leaderboard line as the API and the pages show it."""

    rank: int
    player_id: int
    name: str
    kind: str
    rating: float
    games: int
    deviation: float
    interval: tuple[float, float]
    rank_interval: tuple[int, int]

    @property
    def provisional(self) -> bool:
        return is_provisional(self.deviation)


@dataclass(frozen=True)
class Standing:
    player: Row
    above: list[Row]
    below: list[Row]


@dataclass(frozen=True)
class _Line:
    """A line before its rank interval is counted."""

    rank: int
    player_id: int
    name: str
    kind: str
    rating: float
    games: int
    deviation: float
    rated_at: datetime | None


def _send_rebuild(game: str) -> None:
    send_now(TaskName.REBUILD_LEADERBOARD, (game,))


def _index_missing(game: str) -> None:
    index.request_rebuild(game, _send_rebuild)


def _of_index(lines: Sequence[index.Line]) -> list[_Line]:
    return [_Line(x.rank, x.player_id, x.name, x.kind, x.rating, x.games, x.deviation, x.rated_at) for x in lines]


def _of_row(rank: int, row: Rating) -> _Line:
    return _Line(rank, row.player_id, row.player.name, row.kind, row.rating, row.games, row.deviation, row.rated_at)


def _bounds(lines: Sequence[_Line], now: datetime) -> tuple[list[float], list[tuple[float, float]]]:
    """Each line's deviation now (idle growth included) and 95% interval."""
    deviations = [current_deviation(line.deviation, line.rated_at, now) for line in lines]
    return deviations, [interval(line.rating, deviation) for line, deviation in zip(lines, deviations, strict=True)]


def _assemble(
    lines: Sequence[_Line], deviations: Sequence[float], spans: Sequence[tuple[float, float]], counts: Sequence[int]
) -> list[Row]:
    """The rows, given how many players are above the high and the low end of each interval."""
    rows = []
    for position, (line, deviation, span) in enumerate(zip(lines, deviations, spans, strict=True)):
        above_high, above_low = counts[2 * position], counts[2 * position + 1]
        # Everyone above the low end (the player included) may be ahead; the rank stays within.
        best, worst = min(line.rank, 1 + above_high), max(line.rank, above_low)
        rows.append(
            Row(
                line.rank, line.player_id, line.name, line.kind, line.rating, line.games, deviation, span, (best, worst)
            )
        )
    return rows


def _ends(spans: Sequence[tuple[float, float]]) -> list[float]:
    return [end for low, high in spans for end in (high, low)]


def _rows(
    game: str,
    kind: str | None,
    lines: Sequence[_Line],
    from_index: bool,
    now: datetime | None = None,
    counted: Sequence[tuple[float, int]] | None = None,
) -> list[Row]:
    """The lines with their intervals and rank intervals. `counted`: the interval ends the index worked
    out at `now` with the players above each, read with the lines; used when they are the ends
    computed here (always, unless a float came out otherwise), else counted in one more round trip."""
    deviations, spans = _bounds(lines, now or timezone.now())
    ends = _ends(spans)
    if counted is not None and [end for end, _ in counted] == ends:
        return _assemble(lines, deviations, spans, [above for _, above in counted])
    counts = index.counts_above(game, kind, ends) if from_index else None
    if counts is None:
        counts = sql.ahead(game, kind, [(end, 0) for end in ends])
    return _assemble(lines, deviations, spans, counts)


def _index_or_sql(
    game: str, indexed: T | None, from_sql: Callable[[], U], rebuild: Callable[[U], bool] = lambda _: True
) -> T | U:
    """The index's answer when it has one; else the database's, and a rebuild of the index is asked
    for unless `rebuild` says the database's answer shows nothing missing from the index."""
    if indexed is not None:
        return indexed
    answer = from_sql()
    if rebuild(answer):
        _index_missing(game)
    return answer


def size(game: str, kind: str | None = None) -> int:
    return _index_or_sql(game, index.size(game, kind), lambda: sql.size(game, kind))


# The board's size and one page of its rows, or only the size when the page is past the end.
Page: TypeAlias = tuple[int, list[Row]] | int


def page(game: str, kind: str | None, number: int, size: int) -> Page:
    """The board's size and one page of lines, best first; only the size when `number` is past the end."""
    offset = (number - 1) * size

    def fitted(count: int, lines: Callable[[], list[Row]]) -> Page:
        return count if offset and offset >= count else (count, lines())

    def from_sql() -> Page:
        return fitted(
            sql.size(game, kind),
            lambda: _rows(game, kind, [_of_row(rank, row) for rank, row in sql.page(game, kind, offset, size)], False),
        )

    now = timezone.now()
    order = index.page_lines(game, kind, offset, size, now)
    if order is None:
        return _index_or_sql(game, None, from_sql)
    return fitted(order.count, lambda: _rows(game, kind, _of_index(order.lines), True, now, order.counted))


def standing(game: str, kind: str | None, player_id: int, count: int) -> Standing | None:
    """A player's line with up to `count` lines above and below; None when not on this board."""
    now = timezone.now()
    found = index.around(game, kind, player_id, count, now)
    indexed = None
    if found is not None and found.lines:
        rows = _rows(game, kind, _of_index(found.lines), True, now, found.counted)
        at = next(position for position, row in enumerate(rows) if row.player_id == player_id)
        indexed = Standing(rows[at], rows[:at], rows[at + 1 :])
    # A player missing from a ready index is looked up in the database too; the index is rebuilt only
    # when it is not ready, or when the database has them.
    return _index_or_sql(
        game,
        indexed,
        lambda: _sql_standing(game, kind, player_id, count),
        lambda answer: found is None or answer is not None,
    )


def _sql_standing(game: str, kind: str | None, player_id: int, count: int) -> Standing | None:
    row = sql.row_of(game, kind, player_id)
    if row is None:
        return None
    (ahead,) = sql.ahead(game, kind, [(row.rating, row.player_id)])
    rank = ahead + 1
    above, below = sql.neighbours(row, kind, count)
    lines = [
        *(_of_row(rank - len(above) + position, other) for position, other in enumerate(above)),
        _of_row(rank, row),
        *(_of_row(rank + 1 + position, other) for position, other in enumerate(below)),
    ]
    rows = _rows(game, kind, lines, False)
    return Standing(rows[len(above)], rows[: len(above)], rows[len(above) + 1 :])


def rank(game: str, kind: str | None, player_id: int) -> Row | None:
    """The player's line (rank, rating, intervals); None when not on this board."""
    found = standing(game, kind, player_id, 0)
    return None if found is None else found.player


def search(game: str, kind: str | None, player_ids: Sequence[int], count: int) -> list[Row]:
    """The lines of these players (a name search), best first, at most `count`, each with its rank."""
    ranks = index.ranks(game, kind, player_ids)
    indexed = None
    if ranks is not None:
        wanted = [player_id for player_id, _ in sorted(ranks.items(), key=lambda item: item[1])[:count]]
        each = index.around_each(game, kind, wanted, 0)
        if each is not None:
            lines: list[_Line] = []
            for found in each:
                lines += _of_index(found.lines) if found is not None else []
            indexed = _rows(game, kind, lines, True)
    return _index_or_sql(game, indexed, lambda: _sql_search(game, kind, player_ids, count))


def lines(game: str, kind: str | None, player_ids: Sequence[int]) -> dict[int, Row]:
    """The lines of these players on this board by player id, those not on it left out: a page of
    players (an API answer) is one `search`, not one lookup per player."""
    if not player_ids:
        return {}
    return {row.player_id: row for row in search(game, kind, player_ids, len(player_ids))}


def _sql_search(game: str, kind: str | None, player_ids: Sequence[int], count: int) -> list[Row]:
    rows = sql.found(game, kind, player_ids, count)
    lines = [_of_row(0, row) for row in rows]
    deviations, spans = _bounds(lines, timezone.now())
    # The ranks and the counts above both ends of each interval, in one query.
    counts = sql.ahead(game, kind, [(row.rating, row.player_id) for row in rows] + [(end, 0) for end in _ends(spans)])
    ranked = [replace(line, rank=ahead + 1) for line, ahead in zip(lines, counts, strict=False)]
    return _assemble(ranked, deviations, spans, counts[len(rows) :])
