"""Who sits together in the arena: tables of players close in rating, the window widening with waiting time.

Rules: a player sits at one arena table at a time; a table is never the same set of players as the
last table of any of its members; two players of one owner never sit at one rated table (no rating
farming with two bots); among the candidates in the window, those a player has met least come first.
Used by every pool of the matchmaker (matchmaking.pool), for bots and for people; the seat order of a
table is drawn by arena.seating.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
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

    @classmethod
    def of(cls, entry: ArenaEntry, rating: float) -> Waiting:
        """An entry waits since it entered or, if later, since its last table ended."""
        since = entry.waiting_since
        current = entry.current_match
        if current is not None and current.finished_at and current.finished_at > since:
            since = current.finished_at
        return cls(entry, rating, since)

    def window(self, now: datetime) -> float:
        waited = max(0.0, (now - self.since).total_seconds())
        return float(settings.ARENA_WINDOW_BASE + settings.ARENA_WINDOW_PER_SECOND * waited)


# (smaller player id, larger player id) -> rated arena games the two have played together.
Meetings = Mapping[tuple[int, int], int]


def pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def owner_of(waiting: Waiting) -> int | None:
    return waiting.entry.player.owner_id


def shares_an_owner(owners: Iterable[int | None]) -> bool:
    """Whether two of these players belong to one account (players without an owner never do)."""
    seen: set[int] = set()
    for owner in owners:
        if owner is None:
            continue
        if owner in seen:
            return True
        seen.add(owner)
    return False


def pick_tables(
    pool: Sequence[Waiting], size: int, now: datetime, meetings: Meetings | None = None
) -> list[list[Waiting]]:
    """Tables from the waiting players; the longest-waiting player anchors each table."""
    met = meetings or {}
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
                and not shares_an_owner((owner_of(anchor), owner_of(other)))
                and abs(other.rating - anchor.rating) <= max(window, other.window(now))
            ),
            key=lambda other: (
                met.get(pair(anchor.entry.player_id, other.entry.player_id), 0),
                abs(other.rating - anchor.rating),
                other.since,
                other.entry.id,
            ),
        )[:CANDIDATES]
        for others in itertools.combinations(near, size - 1):
            members = [anchor, *others]
            table = sorted(member.entry.player_id for member in members)
            if any(member.entry.last_table == table for member in members):
                continue
            if shares_an_owner(owner_of(member) for member in others):
                continue
            tables.append(members)
            taken.update(member.entry.id for member in members)
            break
    return tables
