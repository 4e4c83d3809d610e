"""Celery task of the arena matchmaker (periodic, on the periodic queue)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from common.task_names import TaskName
from matchmaking import matchmaker


@shared_task(name=TaskName.MATCHMAKING_TICK, acks_late=True, time_limit=60)
def matchmaking_tick() -> dict[str, Any]:
    return {"matches": matchmaker.tick()}
