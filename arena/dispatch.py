"""The one way the arena sends work to the Celery workers: by task name, once the transaction commits.

Sending by name means no state-changing module imports a tasks module (tasks import actions, never
the other way), and a task is never sent for rows a rollback took back.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from celery import current_app
from django.conf import settings
from django.db import transaction

JsonArg = int | str


def _send(name: str, args: Sequence[JsonArg], *, eta: datetime | None = None, queue: str | None = None) -> None:
    """Send `name(*args)` now; callers go through send_on_commit."""
    app = current_app
    if app.conf.task_always_eager:
        # In-process fallback (no Redis): the registry is filled by autodiscovery on first use.
        app.loader.import_default_modules()
        app.tasks[name].apply(args=tuple(args))
        return
    app.send_task(name, args=list(args), queue=queue or settings.CELERY_TASK_DEFAULT_QUEUE, eta=eta)


def send_on_commit(name: str, args: Sequence[JsonArg], *, eta: datetime | None = None) -> None:
    """Send `name(*args)` when the surrounding transaction commits (at once when there is none)."""
    arguments = tuple(args)
    transaction.on_commit(lambda: _send(name, arguments, eta=eta))
