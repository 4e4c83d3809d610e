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

    def key(self) -> tuple[float, int, int, int, int]:
        return (-self.points, -self.wins, -self.score, self.forfeits, self.entry)


def compute(
    entries: Sequence[int], games: Sequence[Sequence[tuple[int, bool, int]]], byes: Sequence[int] = ()
) -> list[Standing]:
    """`games`: per finished game, (entry, forfeited, total) in seat order; `byes`: one entry per
    round sat out (worth one point, as a won heads-up game). Best first."""
    table = {entry: Standing(entry) for entry in entries}
    for entry in byes:
        if entry in table:
            table[entry].points += 1.0
    for seats in games:
        points = table_points([(forfeited, total) for _, forfeited, total in seats])
        for (entry, forfeited, total), got in zip(seats, points, strict=True):
            row = table.get(entry)
            if row is None:
                continue
            row.points += got
            row.games += 1
            row.score += total
            row.forfeits += int(forfeited)
            if got == len(seats) - 1:
                row.wins += 1
    ordered = sorted(table.values(), key=Standing.key)
    for index, row in enumerate(ordered):
        row.rank = index + 1
    return ordered
