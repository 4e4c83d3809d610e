"""The play tasks: JSON arguments (ids only), stable names, idempotent, acknowledged late."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from common.task_names import TaskName
from results.batches import play_queued as lease_queued
from results.batches import run_matches

_LEASE = float(settings.ARENA_MATCH_LEASE_SECONDS)
# Stop an attempt before its lease runs out, so a slow attempt never overlaps the retry.
_SOFT_LIMIT = max(1.0, _LEASE * 0.8)
_HARD_LIMIT = max(2.0, _LEASE * 0.9)


@shared_task(  # type: ignore[call-overload, untyped-decorator]  # Celery takes float seconds; its stubs say int
    name=TaskName.PLAY_MATCH,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=_SOFT_LIMIT,
    time_limit=_HARD_LIMIT,
)
def play_match(match_id: int) -> str:
    # Its own match, and other queued built-in bot matches with it (ARENA_CLAIM_BATCH).
    return run_matches(int(match_id))


@shared_task(  # type: ignore[call-overload, untyped-decorator]  # as above
    name=TaskName.PLAY_QUEUED,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=_SOFT_LIMIT,
    time_limit=_HARD_LIMIT,
)
def play_queued() -> str:
    # A lease of up to ARENA_CLAIM_BATCH queued built-in bot matches, none of its own (arena.claims.offer_work).
    return lease_queued()
