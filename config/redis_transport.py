"""kombu's Redis transport, with a worker that cannot die restoring messages after its connection closed.

kombu 5.7.0 (the latest release) gives a channel's unacknowledged messages back to the queue when
the channel closes. When that happens after the connection was already torn down (the broker went
away, e.g. a Redis restart), the channel builds a new connection pool from the connection's
settings, which are gone: AttributeError("'NoneType' object has no attribute 'hostname'"), which
the worker reports as an unrecoverable error and exits on. Here that restore is skipped with a
warning instead: the broker is unreachable then anyway. The messages stay in the broker's unacked
index, from which any worker brings them back after the visibility timeout (if the broker kept
them), and the sweep re-sends the task of every queued match the broker no longer holds.

Registered for `redis://` URLs by config/celery.py.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis as kombu_redis

log = logging.getLogger(__name__)

NAME = "config.redis_transport:Transport"


class QoS(kombu_redis.QoS):
    def restore_unacked(self, client: Any = None) -> None:
        transport = self.channel.connection
        delivered = self._delivered
        if client is None and (transport is None or transport.client is None):
            log.warning(
                "not restoring %d unacknowledged message(s): the broker connection is already closed;"
                " they come back after the visibility timeout or with the sweep",
                len(delivered or ()),
            )
            if delivered is not None:
                delivered.clear()
            return
        super().restore_unacked(client)


class Channel(kombu_redis.Channel):
    QoS = QoS


class Transport(kombu_redis.Transport):
    Channel = Channel
