"""Notices to one person, pushed on their live channel once the change commits: it is their turn.

The channel is the one `web.live` names for a person (`<namespace>:live:player:<id>`), relayed to
their pages by `web.streams`; the event carries ids only. Without Redis nothing is sent: the table
still shows the turn when the page reads it.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import redis
from django.db import transaction

from common import service_redis

log = logging.getLogger(__name__)


def player_channel(player_id: int) -> str:
    return f"{service_redis.namespace()}:live:player:{player_id}"


def tell_player_on_commit(player_id: int, event: dict[str, Any]) -> None:
    def send() -> None:
        client = service_redis.client()
        if client is None:
            return
        try:
            client.publish(player_channel(player_id), json.dumps(event))
        except redis.RedisError as exc:
            log.warning("notice to player %s not published: %s", player_id, exc)

    transaction.on_commit(send)
