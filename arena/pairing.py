"""Who sits together in the arena: tables of players close in rating, the window widening with waiting time.

Rules: a player sits at one arena table at a time; a table is never the same set of players as the
last table of any of its members; seats rotate from one table to the next. Used by the matchmaker
for bots and by arena.play.queue for people.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings

from arena.models import ArenaEntry

# How many nearest candidates are tried when looking for a table that is not a repeat.
CANDIDATES = 8


@dataclass
class Waiting:
    entry: ArenaEntry
    rating: float
    since: datetime

    def window(self, now: datetime) -> float:
        waited = max(0.0, (now - self.since).total_seconds())
        return float(settings.ARENA_WINDOW_BASE + settings.ARENA_WINDOW_PER_SECOND * waited)


def rotate_seats(members: Sequence[Waiting]) -> list[Waiting]:
    """Seat order for a table: by player id, rotated by how many tables its members have had."""
    ordered = sorted(members, key=lambda waiting: waiting.entry.player_id)
    shift = sum(waiting.entry.tables_played for waiting in ordered) % len(ordered)
    return ordered[shift:] + ordered[:shift]


def pick_tables(pool: Sequence[Waiting], size: int, now: datetime) -> list[list[Waiting]]:
    """Tables from the waiting players; the longest-waiting player anchors each table."""
    free = sorted(pool, key=lambda waiting: (waiting.since, waiting.entry.id))
    taken: set[int] = set()
    tables = []
    for anchor in free:
        if anchor.entry.id in taken:
            continue
        window = anchor.window(now)
        near = sorted(
            (
                other
                for other in free
                if other.entry.id not in taken
                and other.entry.id != anchor.entry.id
                and abs(other.rating - anchor.rating) <= max(window, other.window(now))
            ),
            key=lambda other: (abs(other.rating - anchor.rating), other.since, other.entry.id),
        )[:CANDIDATES]
        for others in itertools.combinations(near, size - 1):
            members = [anchor, *others]
            table = sorted(member.entry.player_id for member in members)
            if any(member.entry.last_table == table for member in members):
                continue
            tables.append(members)
            taken.update(member.entry.id for member in members)
            break
    return tables
