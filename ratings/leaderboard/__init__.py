"""The leaderboard: one interface for every page, rank and search, whichever backend answers.

`size`, `page`, `rank`, `standing` and `search` answer from the Redis index (`index`) when it is
ready: ranks are ZRANK + 1, no database row is read. When it is not (a fresh or flushed Redis), the
same answers come from PostgreSQL (`sql`), and a rebuild of the index is asked for. Ties on rating go
to the lower player id, in both backends.

Every line carries `interval`, the 95% interval of the rating (rating ± 1.96 deviation, the
deviation grown by the player's idle time), and `rank_interval`, the ranks the player would hold at
either end of it with everyone else in place: [1 + players above the high end, players above the
low end]. Both are counts from the backend (ZCOUNT, or the SQL histogram), never a scan.

The index is written on commit by ratings.ledger (with the rating rows it writes) and by ratings.signals
(a rating row saved elsewhere, as by the admin, and a renamed player).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from django.utils import timezone

from arena.dispatch import send_now
from common.task_names import TaskName
from ratings.elo import interval, is_provisional
from ratings.leaderboard import index, sql
from ratings.models import Rating, current_deviation


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


def _bounds(lines: Sequence[_Line]) -> tuple[list[float], list[tuple[float, float]]]:
    """Each line's deviation now (idle growth included) and 95% interval."""
    now = timezone.now()
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


def _rows(game: str, kind: str | None, lines: Sequence[_Line], from_index: bool) -> list[Row]:
    """The lines with their intervals and rank intervals (two counts per line, in one round trip)."""
    deviations, spans = _bounds(lines)
    counts = index.counts_above(game, kind, _ends(spans)) if from_index else None
    if counts is None:
        counts = sql.ahead(game, kind, [(end, 0) for end in _ends(spans)])
    return _assemble(lines, deviations, spans, counts)


def size(game: str, kind: str | None = None) -> int:
    indexed = index.size(game, kind)
    if indexed is not None:
        return indexed
    _index_missing(game)
    return sql.size(game, kind)


def page(game: str, kind: str | None, number: int, size: int) -> tuple[int, list[Row]] | int:
    """The board's size and one page of lines, best first; only the size when `number` is past the end."""
    offset = (number - 1) * size
    order = index.page_lines(game, kind, offset, size)
    if order is not None:
        if offset and offset >= order.count:
            return order.count
        return order.count, _rows(game, kind, _of_index(order.lines), True)
    _index_missing(game)
    count = sql.size(game, kind)
    if offset and offset >= count:
        return count
    return count, _rows(game, kind, [_of_row(rank, row) for rank, row in sql.page(game, kind, offset, size)], False)


def standing(game: str, kind: str | None, player_id: int, count: int) -> Standing | None:
    """A player's line with up to `count` lines above and below; None when not on this board."""
    found = index.around(game, kind, player_id, count)
    if isinstance(found, index.Lines):
        rows = _rows(game, kind, _of_index(found.lines), True)
        mine = [position for position, row in enumerate(rows) if row.player_id == player_id]
        if mine:
            at = mine[0]
            return Standing(rows[at], rows[:at], rows[at + 1 :])
    result = _sql_standing(game, kind, player_id, count)
    if found is None or (found is False and result is not None):
        _index_missing(game)  # not ready, or missing a player the database has
    return result


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
    if ranks is not None:
        best = sorted(ranks.items(), key=lambda item: item[1])[:count]
        lines: list[_Line] = []
        for player_id, _ in best:
            found = index.around(game, kind, player_id, 0)
            if isinstance(found, index.Lines) and found.lines:
                lines += _of_index(found.lines)
        return _rows(game, kind, lines, True)
    _index_missing(game)
    rows = sql.found(game, kind, player_ids, count)
    lines = [_of_row(0, row) for row in rows]
    deviations, spans = _bounds(lines)
    # The ranks and the counts above both ends of each interval, in one query.
    counts = sql.ahead(game, kind, [(row.rating, row.player_id) for row in rows] + [(end, 0) for end in _ends(spans)])
    ranked = [replace(line, rank=ahead + 1) for line, ahead in zip(lines, counts, strict=False)]
    return _assemble(ranked, deviations, spans, counts[len(rows) :])
