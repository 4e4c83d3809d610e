"""Celery task of the arena matchmaker (periodic, on the periodic queue)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from arena import matchmaking


@shared_task(name="arena.matchmaking_tick", acks_late=True, time_limit=60)
def matchmaking_tick() -> dict[str, Any]:
    return {"matches": matchmaking.tick()}
