"""Friendly tables: a player opens a table for guests (people or bots); it plays unrated once all accept."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from arena.errors import LimitReached, NotSeated, PlayError
from arena.matches import check_count, check_seating, resolve_game
from arena.models import Match, Player
from arena.people import person_of
from arena.seats import Where
from play import clocks, engine, events
from play.clocks import Clock
from play.models import FriendlyTable, TableSeat


def open_table(
    user: Any, game: str, guests: Sequence[object], options: object = None, clock: Clock | None = None
) -> FriendlyTable:
    spec = resolve_game(game)
    clock = clock or clocks.choice(None)
    host = person_of(user)
    if not isinstance(guests, list | tuple) or any(isinstance(g, bool) or not isinstance(g, int) for g in guests):
        raise PlayError("guests must be a list of player ids")
    ids = [int(guest) for guest in guests]
    check_count(spec, len(ids) + 1)  # the host and the guests
    if host.id in ids:
        raise PlayError("you sit at your own table already; invite others")
    if len(set(ids)) != len(ids):
        raise PlayError("a guest is invited twice")
    found = Player.objects.in_bulk(ids)
    for guest_id in ids:
        if guest_id not in found:
            raise PlayError(f"unknown player {guest_id}")
    # The match core's one check of a line-up: who may sit at a table with people, the options.
    seating = check_seating(
        game=spec.key,
        players=[host, *(found[guest_id] for guest_id in ids)],
        options=options,
        where=Where.TABLE,
        challenger=user,
    )
    normalised = seating.options
    with transaction.atomic():
        _check_open_tables(host)
        table = FriendlyTable.objects.create(
            host=host, game=spec.key, options=normalised, turn_seconds=clock.seconds, bank_seconds=clock.bank
        )
        seats = [TableSeat(table=table, seat=0, player=host, accepted=True)]
        for seat, guest_id in enumerate(ids, start=1):
            guest = found[guest_id]
            seats.append(TableSeat(table=table, seat=seat, player=guest, accepted=not guest.is_person))
        TableSeat.objects.bulk_create(seats)
        _tell_seated(table, "invited")
        _start_when_ready(table)
    return table


def _check_open_tables(host: Player) -> None:
    """At most ARENA_MAX_OPEN_TABLES tables per host waiting for guests or still playing; the host's row
    is locked first, so that concurrent requests cannot both pass the count."""
    Player.objects.select_for_update().filter(pk=host.pk).first()
    limit = int(settings.ARENA_MAX_OPEN_TABLES)
    playing = Q(status=FriendlyTable.Status.STARTED, match__status=Match.Status.RUNNING)
    live = Q(status=FriendlyTable.Status.OPEN) | playing
    count = FriendlyTable.objects.filter(live, host=host).count()
    if count >= limit:
        raise LimitReached(
            f"you have {count} open or unfinished tables, the most one account may have "
            f"(ARENA_MAX_OPEN_TABLES={limit}); finish, resign or decline one first"
        )


def _locked_table(user: Any, table_id: int) -> tuple[FriendlyTable, TableSeat]:
    table = FriendlyTable.objects.select_for_update().filter(pk=table_id).first()
    seat = None
    if table is not None:
        seat = TableSeat.objects.filter(table=table, player__owner=user, player__kind=Player.Kind.HUMAN).first()
    if table is None or seat is None:
        raise NotSeated(f"no table {table_id} with a seat for you")
    return table, seat


def accept(user: Any, table_id: int) -> FriendlyTable:
    with transaction.atomic():
        table, seat = _locked_table(user, table_id)
        if table.status != FriendlyTable.Status.OPEN:
            raise PlayError(f"table {table_id} is {table.status}")
        if not seat.accepted:
            seat.accepted = True
            seat.save(update_fields=["accepted"])
            _tell_seated(table, "accepted")
        _start_when_ready(table)
    return table


def decline(user: Any, table_id: int) -> FriendlyTable:
    """A guest declining, or the host closing, cancels a table that has not started."""
    with transaction.atomic():
        table, seat = _locked_table(user, table_id)
        if table.status != FriendlyTable.Status.OPEN:
            raise PlayError(f"table {table_id} is {table.status}")
        table.status = FriendlyTable.Status.CANCELLED
        table.declined_by = seat.player
        table.closed_at = timezone.now()
        table.save(update_fields=["status", "declined_by", "closed_at"])
        _tell_seated(table, "declined")
    return table


def _start_when_ready(table: FriendlyTable) -> None:
    seats = list(table.seats.select_related("player").order_by("seat"))
    if not all(seat.accepted for seat in seats):
        return
    match = engine.create_live_match(
        game=table.game,
        kind=Match.Kind.FRIENDLY,
        players=[seat.player for seat in seats],
        options=table.options,
        created_by=table.host.owner,
        turn_seconds=table.turn_seconds,
        bank_seconds=table.bank_seconds,
    )
    table.status = FriendlyTable.Status.STARTED
    table.match = match
    table.save(update_fields=["status", "match"])
    _tell_seated(table, "started")


def _tell_seated(table: FriendlyTable, why: str) -> None:
    """Everyone seated at the table (host and guests) sees the change in their lobby, once committed."""
    seated = tuple(TableSeat.objects.filter(table=table).values_list("player_id", flat=True))
    events.publish_on_commit(events.LobbyChanged(table.pk, why, seated))
