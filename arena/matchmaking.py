"""The arena matchmaker: tables of players close in rating, the window widening with waiting time.

Rules: a player sits at one arena table at a time; a table is never the same set of players as the
last table of any of its members; seats rotate from one table to the next.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena import actions
from arena.models import ArenaEntry, Match, Player
from ratings.elo import INITIAL_RATING

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


def tick(now: datetime | None = None) -> list[int]:
    """Form every table that can be formed now; returns the ids of the queued arena matches."""
    from ratings.models import Rating

    now = now or timezone.now()
    created: list[int] = []
    pools = (
        ArenaEntry.objects.filter(active=True)
        .values_list("game", "table_size")
        .distinct()
        .order_by("game", "table_size")
    )
    for game, size in list(pools):
        with transaction.atomic():
            # skip_locked: a second tick running at the same time leaves these entries alone.
            entries = list(
                ArenaEntry.objects.select_for_update(skip_locked=True, of=("self",))
                .filter(active=True, game=game, table_size=size)
                .select_related("current_match", "player")
            )
            ratings = dict(
                Rating.objects.filter(game=game, player_id__in=[entry.player_id for entry in entries]).values_list(
                    "player_id", "rating"
                )
            )
            pool = []
            for entry in entries:
                current = entry.current_match
                if current is not None and current.status in (
                    Match.Status.QUEUED,
                    Match.Status.RUNNING,
                ):
                    continue
                since = entry.waiting_since
                if current is not None and current.finished_at and current.finished_at > since:
                    since = current.finished_at
                pool.append(Waiting(entry, ratings.get(entry.player_id, INITIAL_RATING), since))
            # People sit at tables of their own, played decision by decision (see arena.play.queue).
            people = [waiting for waiting in pool if waiting.entry.player.kind == Player.Kind.HUMAN]
            pool = [waiting for waiting in pool if waiting.entry.player.kind != Player.Kind.HUMAN]
            if people:
                from arena.play.queue import seat_people

                created.extend(seat_people(people, game, size, now))
            for members in pick_tables(pool, size, now):
                seated = rotate_seats(members)
                match = actions.create_match(
                    game=game,
                    kind=Match.Kind.ARENA,
                    player_ids=[member.entry.player_id for member in seated],
                )
                table = sorted(member.entry.player_id for member in members)
                for member in members:
                    entry = member.entry
                    entry.current_match = match
                    entry.last_table = table
                    entry.tables_played += 1
                    entry.waiting_since = now
                    entry.save(
                        update_fields=[
                            "current_match",
                            "last_table",
                            "tables_played",
                            "waiting_since",
                        ]
                    )
                created.append(match.id)
    return created
