"""One pool of the ranked arena: the entries of one game and table size, bots or people.

The matchmaker's decision is written here once. `Pool.decide(now)` says which tables form and by
which rule (a full table of waiting players, a placement against the house ladder, house bots after
a wait); `tick` seats those tables; `explain` runs the same decision (now, then at the later times
when the rating window or the patience would change it) and reports the branch taken, so the
explanation of a wait cannot drift from what the matchmaker does.

Bots and people never share a pool: bots get a queued arena match played by the service in one go,
people a table played decision by decision (play.engine), and a person's entry closes when seated.
Everything else is the same rule: who sits together (matchmaking.pairing), house bots
(matchmaking.house, each pool its own patience), and the seat order (arena.seating).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from functools import cached_property
from typing import Any, NamedTuple

from django.conf import settings

from arena.matches import create_match
from arena.models import ArenaEntry, Match, Player
from arena.seating import SeatTally, arena_seat_tally, balanced_order
from matchmaking.house import HouseBots, is_placing, patience
from matchmaking.meetings import count_meetings
from matchmaking.pairing import Meetings, Waiting, owner_of, pick_tables, shares_an_owner
from play import engine
from ratings.elo import INITIAL_RATING
from ratings.models import Rating

PLAYING = (Match.Status.QUEUED, Match.Status.RUNNING)
# How many later moments an explanation tries when looking for the first one that seats the entry.
LATER_MOMENTS = 12


class Stats(NamedTuple):
    """What the decision reads of one player's rating row (a player without one is new)."""

    rating: float = INITIAL_RATING
    games: int = 0
    provisional_left: int = 0


class Branch(StrEnum):
    FULL = "full table"
    PLACEMENT = "placement"
    HOUSE = "house bots"


@dataclass
class Table:
    members: list[Waiting]
    house: list[Player]
    branch: Branch


class Pool:
    """The entries of one pool, with what the decision reads about them (ratings, the house ladder,
    past meetings, past seats), each read once per pool and tick."""

    def __init__(self, game: str, size: int, people: bool, entries: Sequence[ArenaEntry]) -> None:
        self.game = game
        self.size = size
        self.people = people
        self.entries = list(entries)
        # The decision at each moment an explanation asked about (the pool's data do not change).
        self._decisions: dict[datetime, list[Table]] = {}

    @classmethod
    def pools_of(cls, game: str, size: int, entries: Sequence[ArenaEntry]) -> list[Pool]:
        """The people's pool and the bots' pool of these entries (of one game and table size)."""
        people = [entry for entry in entries if entry.player.is_person]
        bots = [entry for entry in entries if not entry.player.is_person]
        return [cls(game, size, True, people), cls(game, size, False, bots)]

    @cached_property
    def stats(self) -> dict[int, Stats]:
        """Per player: rating, rated games and provisional games left."""
        rows = Rating.objects.filter(game=self.game, player_id__in=[entry.player_id for entry in self.entries])
        return {row[0]: Stats(*row[1:]) for row in rows.values_list("player_id", "rating", "games", "provisional_left")}

    def stats_of(self, player_id: int) -> Stats:
        return self.stats.get(player_id, Stats())

    @cached_property
    def waiting(self) -> list[Waiting]:
        """The active entries not at a table now."""
        return [
            Waiting.of(entry, self.stats_of(entry.player_id).rating)
            for entry in self.entries
            if entry.active and not playing(entry)
        ]

    @cached_property
    def house(self) -> HouseBots:
        return HouseBots.load(self.game, self.size)

    @cached_property
    def meetings(self) -> Meetings:
        ids = [waiting.entry.player_id for waiting in self.waiting]
        return count_meetings(ids, ids + self.house.ids)

    @cached_property
    def tally(self) -> SeatTally:
        ids = [waiting.entry.player_id for waiting in self.waiting]
        return arena_seat_tally(self.game, self.size, ids + self.house.ids)

    @cached_property
    def placing(self) -> set[int]:
        """Entry ids of the bots still placing: they play the ladder alone, if there is one."""
        if not self.house:
            return set()
        placing = set()
        for waiting in self.waiting:
            stats = self.stats_of(waiting.entry.player_id)
            if is_placing(waiting, stats.games, stats.provisional_left):
                placing.add(waiting.entry.id)
        return placing

    def decide(self, now: datetime) -> list[Table]:
        """The tables the matchmaker forms at `now`: full tables first, then house bots where due."""
        if not self.waiting:
            return []
        free = [waiting for waiting in self.waiting if waiting.entry.id not in self.placing]
        tables = [Table(members, [], Branch.FULL) for members in pick_tables(free, self.size, now, self.meetings)]
        seated = {member.entry.id for table in tables for member in table.members}
        left = [waiting for waiting in self.waiting if waiting.entry.id not in seated]
        return tables + self._fill(left, now)

    def _fill(self, left: Sequence[Waiting], now: datetime) -> list[Table]:
        """Tables of house bots for those still waiting: placements at once, the others after the pool's
        patience, with the others waiting in the anchor's window (one owner's players never together)."""
        waited_enough = timedelta(seconds=patience(self.people))
        ordered = sorted(left, key=lambda waiting: (waiting.since, waiting.entry.id))
        taken: set[int] = set()
        tables = []
        for anchor in ordered:
            if anchor.entry.id in taken or anchor.entry.player.is_house_bot:
                continue
            placement = anchor.entry.id in self.placing
            if not placement and now - anchor.since < waited_enough:
                continue
            members = [anchor]
            window = anchor.window(now)
            for other in ordered:
                if placement or len(members) == self.size - 1:
                    break  # one seat at least for the ladder: that is what the anchor waited for
                if other.entry.id in taken or other is anchor or other.entry.id in self.placing:
                    continue
                if shares_an_owner([*(owner_of(member) for member in members), owner_of(other)]):
                    continue
                if abs(other.rating - anchor.rating) <= max(window, other.window(now)):
                    members.append(other)
            house = self.house.choose(anchor, members, self.meetings, self.size - len(members), placement, now=now)
            if len(house) < self.size - len(members):
                continue  # no ladder configured: they wait for real opponents
            tables.append(Table(members, house, Branch.PLACEMENT if placement else Branch.HOUSE))
            taken.update(member.entry.id for member in members)
        return tables

    def tick(self, now: datetime, rng: random.Random | None = None) -> list[int]:
        """Seat every table decided at `now` (the caller holds the entries' row locks)."""
        rng = rng or random.Random(f"{self.game}/{self.size}/{self.people}/{now.isoformat()}")
        return [self.seat(table, now, rng) for table in self.decide(now)]

    def seat(self, table: Table, now: datetime, rng: random.Random) -> int:
        """The one seating: the fair seat order (arena.seating), the match, the members' entries."""
        players = {member.entry.player_id: member.entry.player for member in table.members}
        players.update((bot.id, bot) for bot in table.house)
        order = balanced_order(sorted(players), self.tally, rng)
        if self.people:
            match = engine.create_live_match(
                game=self.game, kind=Match.Kind.ARENA, players=[players[player_id] for player_id in order]
            )
        else:
            match = create_match(game=self.game, kind=Match.Kind.ARENA, player_ids=order)
        for member in table.members:
            entry = member.entry
            entry.current_match = match
            entry.last_table = sorted(players)
            entry.tables_played += 1
            entry.waiting_since = now
            fields = ["current_match", "last_table", "tables_played", "waiting_since"]
            if self.people:
                entry.active = False  # a person's entry serves one table
                fields.append("active")
            entry.save(update_fields=fields)
        return match.id

    def explain(self, entry: ArenaEntry, now: datetime) -> dict[str, Any]:
        """`state` (playing, placing, waiting, left), `reason`, `expected_seconds` (or None), `match`,
        `waiting_seconds`: the branch the decision takes for this entry."""
        stats = self.stats_of(entry.player_id)
        waiting = Waiting.of(entry, stats.rating)
        waited = max(0.0, (now - waiting.since).total_seconds())
        tick = float(settings.ARENA_MATCHMAKING_SECONDS)
        answer: dict[str, Any] = {"match": None, "expected_seconds": None}
        if not entry.active:
            answer.update(state="left", reason="the entry has left the arena")
        elif entry.current_match is not None and playing(entry):
            current = entry.current_match
            answer.update(
                state="playing", match=current.id, reason=f"playing arena match {current.id} ({current.status})"
            )
        elif entry.player.is_house_bot:
            answer.update(
                state="waiting",
                reason="a house bot waits for bots of other owners; house bots never fill seats for one",
            )
        else:
            table = self._table_at(entry.id, now)
            if table is not None:
                answer.update(expected_seconds=round(tick, 1), reason=self._seated_reason(table, stats.games, waited))
                answer["state"] = "placing" if table.branch == Branch.PLACEMENT else "waiting"
            else:
                later = self._first_seating(waiting, now)
                answer.update(state="waiting", reason=self._waiting_reason(waiting, now))
                if later is not None:
                    answer["expected_seconds"] = round(later + tick, 1)
        answer["waiting_seconds"] = round(waited, 1)
        return answer

    def _table_at(self, entry_id: int, now: datetime) -> Table | None:
        decided = self._decisions.get(now)
        if decided is None:
            decided = self._decisions[now] = self.decide(now)
        return next((table for table in decided if any(m.entry.id == entry_id for m in table.members)), None)

    def _first_seating(self, waiting: Waiting, now: datetime) -> float | None:
        """Seconds from `now` until the decision would seat this entry if nothing else changed: tried at
        the moments its patience runs out or a rating window reaches another waiting player."""
        moments: set[float] = set()
        if self.house:
            left = timedelta(seconds=patience(self.people)) - (now - waiting.since)
            moments.add(left.total_seconds())
        base, per_second = float(settings.ARENA_WINDOW_BASE), float(settings.ARENA_WINDOW_PER_SECOND)
        if per_second > 0:
            for other in self.waiting:
                apart = abs(other.rating - waiting.rating)
                for member in (waiting, other):
                    # member.window(now + t) == apart
                    moments.add((apart - base) / per_second - (now - member.since).total_seconds())
        for seconds in sorted(moment for moment in moments if moment > 0)[:LATER_MOMENTS]:
            # A millisecond past the moment, so that the comparisons at the boundary are settled.
            if self._table_at(waiting.entry.id, now + timedelta(seconds=seconds + 0.001)) is not None:
                return seconds
        return None

    def _seated_reason(self, table: Table, games: int, waited: float) -> str:
        if table.branch == Branch.PLACEMENT:
            return (
                f"placement ({games} of {settings.ARENA_BOT_PLACEMENT_GAMES} rated games, or a new version "
                "still provisional): seated with the house ladder at the next matchmaking tick"
            )
        others = len(table.members) - 1
        if table.branch == Branch.FULL:
            return (
                f"a table is ready with {others} other{'s' if others != 1 else ''} in the rating window: "
                "seated at the next matchmaking tick"
            )
        return (
            f"waited {waited:.0f} s without a full table: seated with {len(table.house)} house "
            f"bot{'s' if len(table.house) != 1 else ''} at the next matchmaking tick"
        )

    def _waiting_reason(self, waiting: Waiting, now: datetime) -> str:
        window = waiting.window(now)
        whom = "people" if self.people else "bots of other owners"
        reason = (
            f"waiting for {whom} rated within {window:.0f} of {waiting.rating:.0f} "
            f"(the window widens by {settings.ARENA_WINDOW_PER_SECOND:g} a second)"
        )
        if self.house:
            wait = patience(self.people)
            left = max(0.0, wait - (now - waiting.since).total_seconds())
            reason += f"; house bots fill the empty seats after {wait:g} s of waiting ({left:.0f} s left)"
        return reason


def playing(entry: ArenaEntry) -> bool:
    current = entry.current_match
    return current is not None and current.status in PLAYING
