"""The arena queue for people: join for a game and a table size, see one's place, leave.

Tables of people are formed by the arena matchmaker (`matchmaker.tick`) in the people's pool of each
game and table size (`matchmaking.pool`), by the same rules as the bots': people close in rating sit
together (`matchmaking.pairing`), and a person who has waited ARENA_HOUSE_AFTER_SECONDS_PEOPLE gets the
empty seats filled with house bots (`matchmaking.house`). A person's entry serves one table: it closes
when they are seated.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from arena.errors import PlayError
from arena.matches import check_count, resolve_game
from arena.models import ArenaEntry, Match, MatchSeat, Player
from arena.people import person_of


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
