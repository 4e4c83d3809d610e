"""The play task: JSON arguments (ids only), a stable name, idempotent, acknowledged late."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from common.task_names import TaskName
from results.finish import run_matches

_LEASE = float(settings.ARENA_MATCH_LEASE_SECONDS)


@shared_task(  # type: ignore[call-overload, untyped-decorator]  # Celery takes float seconds; its stubs say int
    name=TaskName.PLAY_MATCH,
    acks_late=True,
    reject_on_worker_lost=True,
    # Stop an attempt before its lease runs out, so a slow attempt never overlaps the retry.
    soft_time_limit=max(1.0, _LEASE * 0.8),
    time_limit=max(2.0, _LEASE * 0.9),
)
def play_match(match_id: int) -> str:
    # Its own match, and other queued built-in bot matches with it (ARENA_CLAIM_BATCH).
    return run_matches(int(match_id))
