"""Entering and leaving the ranked arena's waiting pool (the matchmaker seats the entries)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from arena.errors import RequestError
from arena.matches import check_count, resolve_game
from arena.models import ArenaEntry, Player
from arena.seats import Where, check


def enter_arena(*, player_id: int, game: str, table_size: int, entered_by: Any) -> ArenaEntry:
    spec = resolve_game(game)
    check_count(spec, table_size)
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise RequestError(f"no player {player_id}")
    # entered_by None: the service itself (house bots entered by an operator's command).
    allowed = entered_by is None or entered_by.is_staff or player.owner_id == entered_by.id
    if not allowed:
        if player.is_house_bot:
            raise RequestError(
                f"player {player_id} ({player.name}) is a built-in bot: it joins the bots' arena by itself, "
                "as a house bot, whenever a bot waits for opponents"
            )
        raise RequestError(f"player {player_id} ({player.name}) belongs to another account; enter your own bots")
    # The arena plays bot matches: who may sit there, and who may wait in its pool.
    check(player, Where.MATCH)
    check(player, Where.ARENA)
    with transaction.atomic():
        existing = ArenaEntry.objects.filter(player=player, game=spec.key, table_size=table_size, active=True).first()
        if existing is not None:
            return existing
        return ArenaEntry.objects.create(
            player=player,
            game=spec.key,
            table_size=table_size,
            entered_by=entered_by,
            waiting_since=timezone.now(),
        )


def leave_arena(entry: ArenaEntry) -> None:
    with transaction.atomic():
        ArenaEntry.objects.filter(pk=entry.pk).update(active=False)
