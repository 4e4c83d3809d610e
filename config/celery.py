"""The Celery application: `celery -A config worker` consumes the arena queue, `beat` ticks."""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_process_shutdown
from django.conf import settings
from django.db import close_old_connections
from kombu.transport import TRANSPORT_ALIASES

from config import redis_transport

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# redis:// brokers use kombu's Redis transport with one fix (see config/redis_transport.py).
TRANSPORT_ALIASES["redis"] = redis_transport.NAME

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Every app's tasks module.
app.autodiscover_tasks(lambda: settings.INSTALLED_APPS)


@task_prerun.connect
@task_postrun.connect
def keep_or_close_connections(sender: Any = None, **kwargs: Any) -> None:
    """Around each task, what Django does around each request: a connection older than CONN_MAX_AGE, or
    broken, is closed (the next statement opens a fresh one); a live one is kept (CELERY_DB_REUSE_MAX).
    A task run eagerly, inside its caller's transaction, leaves the caller's connection alone."""
    if not getattr(getattr(sender, "request", None), "is_eager", False):
        close_old_connections()


@worker_process_shutdown.connect
def close_kept_bots(**kwargs: Any) -> None:
    """A worker child that ends stops the bots it kept for a next game: their slots and work folders go
    back now, rather than with the sandbox's die-with-parent."""
    from submissions.seats import close_kept_processes  # the apps are loaded only once the worker runs

    close_kept_processes()
