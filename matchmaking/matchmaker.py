"""The arena matchmaker: each tick forms the tables of every pool (matchmaking.pairing says who sits together).

Bots get a queued arena match through the match core; people are handed to matchmaking.people,
which seats them at tables played decision by decision. A bot that waited too long without a full
table gets house bots in the empty seats (matchmaking.house). Past meetings are counted once
per pool and tick (matchmaking.meetings), so bots meet the opponents they have met least.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from arena.matches import create_match
from arena.models import ArenaEntry, Match, Player
from matchmaking.house import fill_with_house_bots, house_players, is_placing, ratings_of
from matchmaking.meetings import count_meetings
from matchmaking.pairing import Waiting, pick_tables, rotate_seats
from matchmaking.people import seat_people
from ratings.elo import INITIAL_RATING
from ratings.models import Rating

__all__ = ["Waiting", "pick_tables", "rotate_seats", "tick"]


def tick(now: datetime | None = None) -> list[int]:
    """Form every table that can be formed now; returns the ids of the queued arena matches."""
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
            stats = {
                player_id: (rating, games, provisional_left)
                for player_id, rating, games, provisional_left in Rating.objects.filter(
                    game=game, player_id__in=[entry.player_id for entry in entries]
                ).values_list("player_id", "rating", "games", "provisional_left")
            }
            ratings = {player_id: values[0] for player_id, values in stats.items()}
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
            # People sit at tables of their own, played decision by decision (see matchmaking.people).
            people = [waiting for waiting in pool if waiting.entry.player.kind == Player.Kind.HUMAN]
            pool = [waiting for waiting in pool if waiting.entry.player.kind != Player.Kind.HUMAN]
            if people:
                created.extend(seat_people(people, game, size, now))
            if not pool:
                continue
            house = house_players(size - 1)
            ratings.update(ratings_of(game, [bot.id for bot in house]))
            waiting_ids = [waiting.entry.player_id for waiting in pool]
            meetings = count_meetings(waiting_ids, waiting_ids + [bot.id for bot in house])
            # Bots still placing play the ladder alone (matchmaking.house), if there is one.
            placing: set[int] = set()
            for waiting in pool if house else []:
                _, games, provisional_left = stats.get(waiting.entry.player_id, (INITIAL_RATING, 0, 0))
                if is_placing(waiting, games, provisional_left):
                    placing.add(waiting.entry.id)
            tables = pick_tables([waiting for waiting in pool if waiting.entry.id not in placing], size, now, meetings)
            seated = {member.entry.id for members in tables for member in members}
            left = [waiting for waiting in pool if waiting.entry.id not in seated]
            for members, bots in [(members, []) for members in tables] + fill_with_house_bots(
                left, size, now, house, ratings, meetings, placing
            ):
                created.append(seat_bots(game, members, bots, now))
    return created


def seat_bots(game: str, members: list[Waiting], bots: list[Player], now: datetime) -> int:
    """One queued rated arena match: the waiting members (seats rotated) then the house bots."""
    seated = rotate_seats(members)
    match = create_match(
        game=game,
        kind=Match.Kind.ARENA,
        player_ids=[member.entry.player_id for member in seated] + [bot.id for bot in bots],
    )
    table = sorted([member.entry.player_id for member in members] + [bot.id for bot in bots])
    for member in members:
        entry = member.entry
        entry.current_match = match
        entry.last_table = table
        entry.tables_played += 1
        entry.waiting_since = now
        entry.save(update_fields=["current_match", "last_table", "tables_played", "waiting_since"])
    return match.id
