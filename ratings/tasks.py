"""Celery tasks of the ratings: JSON arguments, idempotent, acknowledged late."""

from __future__ import annotations

from celery import shared_task

from common.task_names import TaskName
from games.registry import get_game
from ratings.leaderboard import index


@shared_task(name=TaskName.REBUILD_LEADERBOARD, acks_late=True, time_limit=1800)
def rebuild_leaderboard(game: str) -> int:
    """Rebuild a game's leaderboard index from the ratings table (asked for by readers)."""
    return index.rebuild(str(get_game(str(game)).key))


@shared_task(name=TaskName.CATCH_UP_LEADERBOARDS, acks_late=True, time_limit=120)
def catch_up_leaderboards() -> int:
    """Periodic: re-apply the rating rows changed lately to the leaderboard index (see index.catch_up)."""
    return index.catch_up()
