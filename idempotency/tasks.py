from __future__ import annotations

from celery import shared_task

from common.task_names import TaskName
from idempotency.purge import purge_expired


@shared_task(name=TaskName.PURGE_IDEMPOTENCY_KEYS, acks_late=True)
def purge() -> int:
    return purge_expired()
