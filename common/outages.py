"""Outages of the database or the broker: what counts as one, and riding one out.

A task that meets one (PostgreSQL restarted or its backend terminated, Redis restarted) has done
nothing wrong: it reconnects and carries on, and nothing it was working on is counted against the
work (no attempt of a match is used up by an outage; see `results.finish`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

import redis
from django.conf import settings
from django.db import InterfaceError, OperationalError, connection
from kombu.exceptions import OperationalError as BrokerError

log = logging.getLogger(__name__)

T = TypeVar("T")

# The database's connection broke or it refused one (Django wraps psycopg's errors in these two;
# a deadlock or serialization failure is an OperationalError too, and retrying is right for it as
# well), the broker could not take a message, or the service's Redis did not answer.
OUTAGES: tuple[type[BaseException], ...] = (OperationalError, InterfaceError, BrokerError, redis.RedisError)

# First pause before retrying, doubled each time up to the last.
_FIRST_PAUSE = 0.2
_LAST_PAUSE = 2.0


def is_outage(exc: BaseException) -> bool:
    return isinstance(exc, OUTAGES)


def retrying(step: Callable[[], T], *, until: float, what: str) -> T:
    """Run `step` until it gets through an outage, reconnecting between tries, until time.monotonic() > until.

    `step` must be safe to repeat (a read, or a transaction that either committed or did not).
    Inside a transaction nothing is retried (the transaction is lost with its connection): the
    outage goes up to whoever began it. After `until`, the last outage is raised. A try is begun only
    if its connection attempt, bounded by the connect timeout (ARENA_DB_CONNECT_TIMEOUT: a link that
    was cut is given up on then, not after the kernel's minutes of retries), can end before `until`.
    """
    pause = _FIRST_PAUSE
    connecting = float(getattr(settings, "ARENA_DB_CONNECT_TIMEOUT", 0))
    while True:
        try:
            return step()
        except OUTAGES as exc:
            if connection.in_atomic_block or time.monotonic() + pause + connecting > until:
                raise
            log.warning("%s: %s: %s; retrying in %.1fs", what, type(exc).__name__, exc, pause)
            # A broken connection is not reused: the next query opens a fresh one.
            try:
                connection.close()
            except OUTAGES:
                pass  # already gone
            time.sleep(pause)
            pause = min(_LAST_PAUSE, pause * 2)
