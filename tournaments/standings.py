"""Standings: points by finishing place at each table, then the documented tie-breaks.

At a table of N, a player gets one point per opponent placed below it and half a point per
opponent placed level (N - 1 points for a clear first place, 0 for a clear last). A forfeiter is
placed below every player that did not forfeit, as in the ratings. Ties in the standings are
broken by, in order: first places, the sum of game totals, fewer forfeits, earlier entry. A swiss
bye (tables of 2, odd number of entrants) is worth one point.

>>> table_points([(False, 30), (False, 20), (False, 20)])
[2.0, 0.5, 0.5]
>>> table_points([(True, 50), (False, 10)])
[0.0, 1.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from games.part_du_chef.placing import placings


def table_points(results: Sequence[tuple[bool, float]]) -> list[float]:
    """(forfeited, total) per seat -> points per seat, from the seats' placings (games.part_du_chef.placing)."""
    placed = placings([total for _, total in results], [forfeited for forfeited, _ in results])
    return [
        sum(1.0 if mine < theirs else 0.5 if mine == theirs else 0.0 for j, theirs in enumerate(placed) if j != i)
        for i, mine in enumerate(placed)
    ]


@dataclass
class Standing:
    entry: int
    points: float = 0.0
    games: int = 0
    wins: int = 0
    score: int = 0
    forfeits: int = 0
    rank: int = 0
    history: list[int] = field(default_factory=list)
    # A duplicate tournament's sum of luck-corrected scores (tournaments/luck.py); None while a game
    # of the entry has none yet, and in other tournaments.
    corrected: float | None = None

    def key(self) -> tuple[float, int, int, int, int]:
        return (-self.points, -self.wins, -self.score, self.forfeits, self.entry)


def compute(
    entries: Sequence[int],
    games: Sequence[Sequence[tuple[int, bool, int]]],
    byes: Sequence[int] = (),
    corrected: Sequence[Sequence[float] | None] | None = None,
) -> list[Standing]:
    """`games`: per finished game, (entry, forfeited, total) in seat order; `byes`: one entry per
    round sat out (worth one point, as a won heads-up game); `corrected`, where given: per game, each
    seat's luck-corrected score or None (not corrected yet). Best first; the corrected sums break no tie.

    >>> rows = compute([1, 2], [[(1, False, 30), (2, False, 20)]], corrected=[[27.5, 21.0]])
    >>> [(row.entry, row.points, row.score, row.corrected) for row in rows]
    [(1, 1.0, 30, 27.5), (2, 0.0, 20, 21.0)]
    """
    table = {entry: Standing(entry) for entry in entries}
    missing: set[int] = set()
    if corrected is not None:
        for standing in table.values():
            standing.corrected = 0.0
    for entry in byes:
        if entry in table:
            table[entry].points += 1.0
    for index, seats in enumerate(games):
        points = table_points([(forfeited, total) for _, forfeited, total in seats])
        scores = corrected[index] if corrected is not None else None
        for seat, ((entry, forfeited, total), got) in enumerate(zip(seats, points, strict=True)):
            row = table.get(entry)
            if row is None:
                continue
            if corrected is not None:
                if scores is None or len(scores) != len(seats):
                    missing.add(entry)
                elif row.corrected is not None:
                    row.corrected += float(scores[seat])
            row.points += got
            row.games += 1
            row.score += total
            row.forfeits += int(forfeited)
            if got == len(seats) - 1:
                row.wins += 1
    for entry in missing:
        table[entry].corrected = None
    ordered = sorted(table.values(), key=Standing.key)
    for index, row in enumerate(ordered):
        row.rank = index + 1
    return ordered
