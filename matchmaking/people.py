"""The arena queue for people: join for a game and a table size, see one's place, leave.

Tables of people are formed by the arena matchmaker (`matchmaker.tick`), which hands the
people of each pool to `seat_people`: people close in rating sit together (`matchmaking.pairing`), and a
person who has waited longer than ARENA_HOUSE_BOTS_AFTER_SECONDS gets the empty seats filled with house bots.
A person's entry serves one table: it closes when they are seated.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from arena.errors import PlayError
from arena.matches import check_count, resolve_game
from arena.models import ArenaEntry, Match, MatchSeat, Player
from arena.people import person_of
from games.part_du_chef.bots import BOT_NAMES
from matchmaking.pairing import Waiting, pick_tables, rotate_seats
from play import engine
from ratings.elo import INITIAL_RATING
from ratings.models import Rating


def join(user: Any, game: str, table_size: object) -> ArenaEntry:
    spec = resolve_game(game)
    if isinstance(table_size, bool) or not isinstance(table_size, int):
        raise PlayError("table_size must be an integer")
    check_count(spec, table_size)
    player = person_of(user)
    with transaction.atomic():
        # Serialises the joins of one person, so they wait in one queue at a time.
        Player.objects.select_for_update().filter(pk=player.pk).first()
        waiting = ArenaEntry.objects.filter(player=player, active=True).first()
        if waiting is not None:
            if waiting.game == spec.key and waiting.table_size == table_size:
                return waiting
            raise PlayError(
                f"you are already waiting for a {waiting.table_size}-player table of {waiting.game}; "
                "leave that queue first"
            )
        playing = current_match(player)
        if playing is not None:
            raise PlayError(f"you are playing match {playing}; finish it before joining the queue")
        return ArenaEntry.objects.create(
            player=player, game=spec.key, table_size=table_size, entered_by=user, waiting_since=timezone.now()
        )


def leave(user: Any) -> int:
    return ArenaEntry.objects.filter(player__owner=user, player__kind=Player.Kind.HUMAN, active=True).update(
        active=False
    )


def current_match(player: Player) -> int | None:
    """The running table match of a person, if any."""
    return (
        MatchSeat.objects.filter(player=player, match__status=Match.Status.RUNNING, match__live__isnull=False)
        .order_by("-match_id")
        .values_list("match_id", flat=True)
        .first()
    )


def place_of(entry: ArenaEntry) -> int:
    """1 + the people of the same pool who have waited longer."""
    ahead = ArenaEntry.objects.filter(
        Q(waiting_since__lt=entry.waiting_since) | Q(waiting_since=entry.waiting_since, id__lt=entry.id),
        active=True,
        game=entry.game,
        table_size=entry.table_size,
        player__kind=Player.Kind.HUMAN,
    )
    return ahead.count() + 1


def status(user: Any) -> dict[str, Any]:
    player = person_of(user)
    entry = ArenaEntry.objects.filter(player=player, active=True).first()
    now = timezone.now()
    waiting = None
    if entry is not None:
        waiting = {
            "game": entry.game,
            "table_size": entry.table_size,
            "place": place_of(entry),
            "waiting_seconds": round((now - entry.waiting_since).total_seconds(), 1),
        }
    return {"player": player.id, "waiting": waiting, "match": current_match(player)}


def house_bots(game: str, count: int, near: float, exclude: Sequence[int] = ()) -> list[Player]:
    """`count` house bots (built-in engines, no owner), the closest in rating to `near` first."""
    engines = [name for name in settings.ARENA_HOUSE_BOTS if name in BOT_NAMES]
    if not engines:
        return []
    bots = list(Player.objects.filter(kind=Player.Kind.BOT, owner=None, builtin__in=engines).exclude(id__in=exclude))
    number = 2
    while len(bots) < count:
        # Fewer house bots than empty seats: another player for each engine, under a name of its own.
        for name in engines:
            bot, _ = Player.objects.get_or_create(
                name=f"{name}-{number}", defaults={"kind": Player.Kind.BOT, "builtin": name}
            )
            if bot.kind == Player.Kind.BOT and bot.builtin == name and bot not in bots and bot.id not in exclude:
                bots.append(bot)
        number += 1
    ratings = dict(
        Rating.objects.filter(game=game, player_id__in=[bot.id for bot in bots]).values_list("player_id", "rating")
    )
    bots.sort(key=lambda bot: (abs(ratings.get(bot.id, INITIAL_RATING) - near), bot.id))
    return bots[:count]


def _seat(members: Sequence[Waiting], bots: Sequence[Player], game: str, now: datetime) -> int:
    people = rotate_seats(members)
    match = engine.create_live_match(
        game=game, kind=Match.Kind.ARENA, players=[member.entry.player for member in people] + list(bots)
    )
    table = sorted([member.entry.player_id for member in members] + [bot.id for bot in bots])
    for member in members:
        entry = member.entry
        entry.active = False
        entry.current_match = match
        entry.last_table = table
        entry.tables_played += 1
        entry.save(update_fields=["active", "current_match", "last_table", "tables_played"])
    return match.id


def seat_people(pool: Sequence[Waiting], game: str, size: int, now: datetime) -> list[int]:
    """Tables for the waiting people of one pool (called by the matchmaker with their entries locked)."""
    created = []
    seated: set[int] = set()
    for members in pick_tables(pool, size, now):
        created.append(_seat(members, [], game, now))
        seated.update(member.entry.id for member in members)
    patience = timedelta(seconds=float(settings.ARENA_HOUSE_BOTS_AFTER_SECONDS))
    left = sorted((w for w in pool if w.entry.id not in seated), key=lambda w: (w.since, w.entry.id))
    for anchor in left:
        if anchor.entry.id in seated or now - anchor.since < patience:
            continue
        window = anchor.window(now)
        company = [
            other
            for other in left
            if other.entry.id not in seated
            and other.entry.id != anchor.entry.id
            and abs(other.rating - anchor.rating) <= max(window, other.window(now))
        ]
        company.sort(key=lambda other: (abs(other.rating - anchor.rating), other.since, other.entry.id))
        members = [anchor, *company[: size - 1]]
        mean = sum(member.rating for member in members) / len(members)
        bots = house_bots(game, size - len(members), mean)
        if len(bots) < size - len(members):
            continue  # no house bots configured: people wait for people
        created.append(_seat(members, bots, game, now))
        seated.update(member.entry.id for member in members)
    return created
