"""Celery tasks: JSON arguments (ids only), stable names, idempotent, acknowledged late."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from arena import actions

_LEASE = float(settings.ARENA_MATCH_LEASE_SECONDS)


@shared_task(  # type: ignore[call-overload, untyped-decorator]  # Celery takes float seconds; its stubs say int
    name="arena.play_match",
    acks_late=True,
    reject_on_worker_lost=True,
    # Stop an attempt before its lease runs out, so a slow attempt never overlaps the retry.
    soft_time_limit=max(1.0, _LEASE * 0.8),
    time_limit=max(2.0, _LEASE * 0.9),
)
def play_match(match_id: int) -> str:
    return actions.run_match(int(match_id))


@shared_task(name="arena.sweep_stuck_matches", acks_late=True, time_limit=60)
def sweep_stuck_matches() -> dict[str, int]:
    return actions.sweep_stuck_matches()
