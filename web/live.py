"""Pushed updates: what changed at a table or in a person's lobby, published on Redis pub/sub.

Receivers on the models where play state is saved publish, once the transaction commits, a small
JSON event on a channel of the table or of the person; `web.streams` relays the channels to browsers
as Server-Sent Events. An event carries no hidden information (ids and turn numbers only): the page
fetches what it may show through its usual views. Without Redis nothing is published and the pages
poll.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from typing import Any, TypedDict

import redis
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from arena.models import MatchSeat, Player
from common import service_redis
from play.models import FriendlyTable, LiveGame, TableSeat
from web.context import PLAYING_SECONDS, playing_key

log = logging.getLogger(__name__)

# How long the notes of the house's moves outlive the table's last change.
HOUSE_NOTES_SECONDS = 7 * 24 * 3600


def _prefix() -> str:
    return f"{service_redis.namespace()}:live"


def table_channel(match_id: int) -> str:
    return f"{_prefix()}:table:{match_id}"


def player_channel(player_id: int) -> str:
    return f"{_prefix()}:player:{player_id}"


def publish(channel: str, event: dict[str, Any]) -> None:
    """Send one event now; a page missing it still catches up by polling, so a failure only logs."""
    client = service_redis.client()
    if client is None:
        return
    try:
        client.publish(channel, json.dumps(event))
    except redis.RedisError as exc:
        log.warning("live update on %s not published: %s", channel, exc)


def _tell_players(player_ids: Iterable[int], event: dict[str, Any]) -> None:
    for player_id in set(player_ids):
        publish(player_channel(player_id), event)


def _house_key(match_id: int) -> str:
    return f"{_prefix()}:house:{match_id}"


def house_moves(match_id: int) -> dict[int, str]:
    """Decisions (by index in the record) the house took for a person: "clock" when their time ran
    out, "left" once they had left. Kept beside the live updates: the record does not say who chose."""
    client = service_redis.client()
    if client is None:
        return {}
    try:
        raw = client.hget(_house_key(match_id), "moves")
    except redis.RedisError:
        return {}
    return {int(k): str(v) for k, v in json.loads(raw).items()} if raw else {}


class _SeenClocks(TypedDict):
    timeouts: list[int]
    out: list[bool]


def _note_house_move(live: LiveGame) -> None:
    """Compare the saved clocks with the last ones seen: a timeout counted with this decision means the
    house took it; a seat already out when it acted is played by the house."""
    client = service_redis.client()
    actions = live.record.get("actions") or []
    if client is None or not actions:
        return
    key = _house_key(live.match_id)
    try:
        seen_raw, moves_raw = client.hmget(key, ["seen", "moves"])
        seen: _SeenClocks = (
            json.loads(seen_raw) if seen_raw else {"timeouts": [0] * len(live.timeouts), "out": [False] * len(live.out)}
        )
        moves = json.loads(moves_raw) if moves_raw else {}
        seat = int(actions[-1]["seat"])
        index = len(actions) - 1
        if 0 <= seat < len(live.timeouts):
            if live.timeouts[seat] > seen["timeouts"][seat]:
                moves[str(index)] = "clock"
            elif seen["out"][seat]:
                moves[str(index)] = "left"
        client.hset(
            key, mapping={"seen": json.dumps({"timeouts": live.timeouts, "out": live.out}), "moves": json.dumps(moves)}
        )
        client.expire(key, HOUSE_NOTES_SECONDS)
    except (redis.RedisError, ValueError, KeyError, IndexError, TypeError) as exc:
        log.warning("house moves of match %s not noted: %s", live.match_id, exc)


def _note_seen(live: LiveGame) -> None:
    client = service_redis.client()
    if client is None:
        return
    key = _house_key(live.match_id)
    try:
        client.hset(key, "seen", json.dumps({"timeouts": live.timeouts, "out": live.out}))
        client.expire(key, HOUSE_NOTES_SECONDS)
    except redis.RedisError as exc:
        log.warning("house moves of match %s not noted: %s", live.match_id, exc)


@receiver(post_save, sender=LiveGame, dispatch_uid="web-live-table")
def table_saved(sender: type[LiveGame], instance: LiveGame, created: bool, update_fields: Any = None, **_: Any) -> None:
    match_id, turn, over = instance.match_id, instance.turn, instance.to_act is None
    event = {"type": "turn", "match": match_id, "turn": turn, "over": over}
    # A resignation saves only the clocks: it is noted as seen, and the house's moves follow.
    decided = update_fields is None or "record" in update_fields

    def send() -> None:
        if decided:
            _note_house_move(instance)
        else:
            _note_seen(instance)
        publish(table_channel(match_id), event)
        if created or over:
            seated = list(
                MatchSeat.objects.filter(match_id=match_id).values_list("player_id", "player__owner_id", "player__kind")
            )
            # People only: the owner of a submitted bot is not playing when the bot is.
            owners = [owner for _, owner, kind in seated if owner is not None and kind == Player.Kind.HUMAN]
            if created:
                # The table has just formed: everyone seated is taken to it, and headers show it.
                _tell_players([player for player, _, _ in seated], {"type": "table", "match": match_id})
            try:
                if created:
                    cache.set_many({playing_key(owner): match_id for owner in owners}, PLAYING_SECONDS)
                else:
                    cache.delete_many([playing_key(owner) for owner in owners])
            except redis.RedisError as exc:  # after the commit: the headers' hint waits, the match stands
                log.warning("playing hints of match %s not updated: %s", match_id, exc)

    transaction.on_commit(send)


def _lobby_changed(table_id: int) -> None:
    def send() -> None:
        seated = TableSeat.objects.filter(table_id=table_id).values_list("player_id", flat=True)
        _tell_players(seated, {"type": "lobby", "table": table_id})

    transaction.on_commit(send)


@receiver(post_save, sender=FriendlyTable, dispatch_uid="web-live-friendly-table")
def friendly_table_saved(sender: type[FriendlyTable], instance: FriendlyTable, **_: Any) -> None:
    """Opened (the invitations appear at once), started or cancelled."""
    _lobby_changed(instance.pk)


@receiver(post_save, sender=TableSeat, dispatch_uid="web-live-table-seat")
def table_seat_saved(sender: type[TableSeat], instance: TableSeat, **_: Any) -> None:
    """A guest accepted: the host and the other guests see the tick."""
    _lobby_changed(instance.table_id)
