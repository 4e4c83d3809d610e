"""Celery tasks of tournaments: JSON arguments (ids only), stable names, idempotent."""

from __future__ import annotations

from celery import shared_task

from common.task_names import TaskName
from tournaments import actions


@shared_task(name=TaskName.TOURNAMENT_ADVANCE, acks_late=True, reject_on_worker_lost=True, time_limit=120)
def advance_tournament(tournament_id: int) -> str:
    return actions.advance(int(tournament_id))


@shared_task(name=TaskName.TOURNAMENT_START, acks_late=True, reject_on_worker_lost=True, time_limit=120)
def start_tournament(tournament_id: int) -> bool:
    return actions.start(int(tournament_id))


@shared_task(name=TaskName.TOURNAMENT_TICK, acks_late=True, time_limit=120)
def tick() -> dict[str, int]:
    return actions.tick()
