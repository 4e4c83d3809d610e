"""Celery tasks of the play table: JSON arguments (ids only), idempotent by turn number."""

from __future__ import annotations

from celery import shared_task

from common.task_names import TaskName
from play import engine


@shared_task(name=TaskName.PLAY_TURN, acks_late=True, reject_on_worker_lost=True, soft_time_limit=30, time_limit=40)
def play_turn(match_id: int, turn: int) -> str:
    return engine.play_turn(int(match_id), int(turn))


@shared_task(name=TaskName.SWEEP_TURN_CLOCKS, acks_late=True, time_limit=60)
def sweep_turn_clocks() -> dict[str, int]:
    return engine.sweep()
