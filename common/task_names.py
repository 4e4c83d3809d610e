"""Every Celery task's name, declared once: the senders and the `@shared_task` decorators import it.

Names are stable strings (queued messages and beat's schedule carry them), so a module that moves
keeps its tasks' names; a typo here is an import error, not a message nobody consumes.
"""

from __future__ import annotations

from enum import StrEnum


class TaskName(StrEnum):
    PLAY_MATCH = "arena.play_match"
    PLAY_QUEUED = "arena.play_queued"
    SWEEP_STUCK_MATCHES = "arena.sweep_stuck_matches"
    MATCHMAKING_TICK = "arena.matchmaking_tick"
    PLAY_TURN = "play.play_turn"
    SWEEP_TURN_CLOCKS = "play.sweep_turn_clocks"
    VALIDATE_VERSION = "submissions.validate_version"
    SWEEP_VALIDATIONS = "submissions.sweep_validations"
    RUN_COMPARE = "submissions.run_compare"
    PLAY_COMPARISON_DEAL = "submissions.play_comparison_deal"
    TOURNAMENT_ADVANCE = "tournaments.advance"
    TOURNAMENT_START = "tournaments.start"
    TOURNAMENT_TICK = "tournaments.tick"
    REBUILD_LEADERBOARD = "ratings.rebuild_leaderboard"
    CATCH_UP_LEADERBOARDS = "ratings.catch_up_leaderboards"
    PURGE_IDEMPOTENCY_KEYS = "idempotency.purge"


# Beat's periodic tasks and the leaderboard rebuild run on the periodic queue (ARENA_PERIODIC_QUEUE), never
# behind a backlog of matches to play (CELERY_TASK_ROUTES in config/settings.py, `arena.dispatch`).
PERIODIC = (
    TaskName.SWEEP_STUCK_MATCHES,
    TaskName.MATCHMAKING_TICK,
    TaskName.SWEEP_TURN_CLOCKS,
    TaskName.SWEEP_VALIDATIONS,
    TaskName.TOURNAMENT_TICK,
    TaskName.CATCH_UP_LEADERBOARDS,
    TaskName.PURGE_IDEMPOTENCY_KEYS,
)
OFF_THE_PLAY_QUEUE = frozenset({*PERIODIC, TaskName.REBUILD_LEADERBOARD})
