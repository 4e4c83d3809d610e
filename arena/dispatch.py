"""The one way the service sends work to the Celery workers: by task name, once the transaction commits.

Sending by name (`common.task_names`) means no state-changing module imports a tasks module (tasks
import actions, never the other way), and a task is never sent for rows a rollback took back.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from celery import current_app
from django.conf import settings
from django.db import transaction
from kombu.exceptions import OperationalError
from redis.exceptions import RedisError

from common.task_names import OFF_THE_PLAY_QUEUE, TaskName

JsonArg = int | str

log = logging.getLogger(__name__)
# What an unreachable or failing broker raises while publishing (kombu wraps most of it).
BROKER_ERRORS = (OperationalError, RedisError, ConnectionError, OSError)


def queue_of(name: TaskName) -> str:
    """The queue a task goes to, read when sent: tests and operators set the queues at run time."""
    return settings.ARENA_PERIODIC_QUEUE if name in OFF_THE_PLAY_QUEUE else settings.CELERY_TASK_DEFAULT_QUEUE


def send_now(name: TaskName, args: Sequence[JsonArg], *, eta: datetime | None = None) -> None:
    """Send `name(*args)` at once: for a sender with no rows of its own to commit (a reader asking for a rebuild)."""
    app = current_app
    if app.conf.task_always_eager:
        # In-process fallback (no Redis): the registry is filled by autodiscovery on first use.
        app.loader.import_default_modules()
        app.tasks[name].apply(args=tuple(args))
        return
    app.send_task(name, args=list(args), queue=queue_of(name), eta=eta)


def send_after_commit(name: TaskName, args: Sequence[JsonArg], *, eta: datetime | None = None) -> None:
    """Send once the rows are committed: a broker error is logged, never raised. The request that
    committed them was applied and answers so (no 500 for a table that exists); the sweepers resend
    what a lost message should have started (queued matches, pending validations, due ticks)."""
    try:
        send_now(name, args, eta=eta)
    except BROKER_ERRORS:
        log.exception("the broker refused %s%r after its commit; the sweepers will resend it", name.value, tuple(args))


def send_on_commit(name: TaskName, args: Sequence[JsonArg], *, eta: datetime | None = None) -> None:
    """Send `name(*args)` when the surrounding transaction commits (at once when there is none)."""
    arguments = tuple(args)
    transaction.on_commit(lambda: send_after_commit(name, arguments, eta=eta))
