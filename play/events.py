"""Live events: what happened at a table or in a person's lobby, and why, published once committed.

The play actions say what they did by calling `publish_on_commit(event)` inside their transaction (as
Zulip's actions call `send_event_on_commit`): a decision taken and who took it, a resignation, a table
formed or over, a friendly table's invitation answered. Nothing is inferred from saved rows. Once the
transaction commits, the event is appended as a small JSON message to a Redis stream, the channel of a
table (its players and spectators) or of a player (a person's lobby); `web.streams` relays the channels
to browsers. A channel keeps its last `KEPT_EVENTS` events for `KEPT_SECONDS` after the last one, so a
page that lost its connection is sent what it missed when it comes back (`Last-Event-ID`). A
rolled-back action publishes nothing.

An event carries no hidden information (ids, turn numbers and causes only): a page fetches what it may
show through its usual views. Without Redis nothing is published and the pages poll; a publish that
fails only logs, since a page missing an event still catches up by polling.

A table forming or ending also updates the table every page header shows a person (`playing_table`),
kept in the cache so that no page pays a query for it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import redis
from django.core.cache import cache
from django.db import transaction

from arena.models import Player
from common import service_redis

log = logging.getLogger(__name__)

# A game lasts minutes; a header key that missed its table's end is forgotten after this long.
PLAYING_SECONDS = 6 * 3600
# What a channel keeps for a page coming back: a few minutes of a busy table's moves, and an hour after
# the last event (a page away longer is told to read its state again instead).
KEPT_EVENTS = 200
KEPT_SECONDS = 3600


def _prefix() -> str:
    return f"{service_redis.namespace()}:live"


def table_channel(match_id: int) -> str:
    return f"{_prefix()}:table:{match_id}"


def player_channel(player_id: int) -> str:
    return f"{_prefix()}:player:{player_id}"


def playing_key(user_id: int) -> str:
    return f"web-playing:{user_id}"


def playing_table(user_id: int) -> int | None:
    """The table an account's person plays at, as the header shows it (read from the cache only)."""
    found = cache.get(playing_key(user_id))
    return int(found) if found is not None else None


@dataclass(frozen=True)
class TurnTaken:
    """A decision was taken at a table; `decided_by` says who took it (a `LiveGame.DecidedBy` value:
    the seat itself, or the house because the clock ran out, the seat had left, or a bot forfeited)."""

    match: int
    turn: int  # decisions taken so far, this one included
    over: bool
    decided_by: str


@dataclass(frozen=True)
class Resigned:
    """A person left their table: the house plays their seat from now on (no decision taken yet)."""

    match: int
    turn: int


@dataclass(frozen=True)
class TableFormed:
    """A table started: everyone seated is taken to it, and its people's headers show it."""

    match: int
    players: tuple[int, ...]
    accounts: tuple[int, ...]  # the accounts of the people seated (a bot's owner is not playing)


@dataclass(frozen=True)
class TableOver:
    """A table's game ended: its people's headers stop showing it (the last TurnTaken says `over`)."""

    match: int
    accounts: tuple[int, ...]


@dataclass(frozen=True)
class LobbyChanged:
    """A friendly table was opened ("invited"), a guest "accepted", it was "declined" (or closed by its
    host), or it "started": everyone seated at it sees the change in their lobby."""

    table: int
    why: str
    players: tuple[int, ...]


Event = TurnTaken | Resigned | TableFormed | TableOver | LobbyChanged


def accounts_of(players: Sequence[Player]) -> tuple[int, ...]:
    """The accounts of the people among `players`."""
    return tuple(player.owner_id for player in players if player.is_person and player.owner_id is not None)


def publish_on_commit(event: Event) -> None:
    """Publish `event` once the caller's transaction commits (at once outside a transaction). Robust:
    a failure to publish is logged and never undoes nor fails the committed action."""
    transaction.on_commit(lambda: publish(event), robust=True)


def publish(event: Event) -> None:
    """Send `event` now: its messages, and what it changes in the people's headers."""
    match event:
        case TurnTaken(match=match_id, turn=turn, over=over, decided_by=why):
            _send(table_channel(match_id), {"type": "turn", "match": match_id, "turn": turn, "over": over, "why": why})
        case Resigned(match=match_id, turn=turn):
            _send(
                table_channel(match_id),
                {"type": "turn", "match": match_id, "turn": turn, "over": False, "why": "resigned"},
            )
        case TableFormed(match=match_id, players=players, accounts=accounts):
            _tell_players(players, {"type": "table", "match": match_id})
            cache.set_many({playing_key(account): match_id for account in accounts}, PLAYING_SECONDS)
        case TableOver(accounts=accounts):
            cache.delete_many([playing_key(account) for account in accounts])
        case LobbyChanged(table=table_id, why=why, players=players):
            _tell_players(players, {"type": "lobby", "table": table_id, "why": why})


def _tell_players(player_ids: Iterable[int], message: dict[str, Any]) -> None:
    for player_id in sorted(set(player_ids)):
        _send(player_channel(player_id), message)


def send_on_commit(channel: str, message: dict[str, Any]) -> None:
    """Publish one message on a channel once the caller's transaction commits (notices, chat moves)."""
    transaction.on_commit(lambda: _send(channel, message), robust=True)


def _send(channel: str, message: dict[str, Any]) -> None:
    client = service_redis.client()
    if client is None:
        return
    try:
        # One round trip: the event (its id is the stream's, what the pages resume from) and the
        # channel's life, renewed by each event; the oldest events go past KEPT_EVENTS.
        pipe = client.pipeline(transaction=False)
        pipe.xadd(channel, {"data": json.dumps(message)}, maxlen=KEPT_EVENTS, approximate=True)
        pipe.expire(channel, KEPT_SECONDS)
        pipe.execute()
    except redis.RedisError as exc:
        log.warning("live update on %s not published: %s", channel, exc)
