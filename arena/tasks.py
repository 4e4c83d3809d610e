"""The match core's periodic task: JSON arguments, a stable name, idempotent, acknowledged late."""

from __future__ import annotations

from celery import shared_task

from arena import sweeper
from common.task_names import TaskName


@shared_task(name=TaskName.SWEEP_STUCK_MATCHES, acks_late=True, time_limit=60)
def sweep_stuck_matches() -> dict[str, int]:
    return sweeper.sweep_stuck_matches()
