"""A worker keeps its database connection from one task to the next, as a web process keeps one between requests.

Celery's Django fixup closed every connection before and after every task, so each play task (most
of them find their match played by another task's batch and end after one SELECT) paid for a new
connection; `CELERY_DB_REUSE_MAX` stops that, and `close_old_connections` around each task keeps
CONN_MAX_AGE and the health checks (config/celery.py).
"""

from __future__ import annotations

import pytest
from django.db import connection

from arena.matches import create_match
from arena.models import Match
from tests.support import wait_until


def _other_backends() -> set[tuple[int, object]]:
    """The sessions on the test database other than this test's own: (pid, when it started)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, backend_start FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return {(int(pid), started) for pid, started in cursor.fetchall()}


@pytest.mark.system
def test_a_worker_keeps_its_database_connection_from_one_task_to_the_next(workers, make_bots) -> None:
    players = make_bots(2)
    workers.start("steady", DATABASE_CONN_MAX_AGE="60")
    seen = []
    for seed in range(3):
        match = create_match(game="part-du-chef", kind="ranked", player_ids=[p.id for p in players], seed=seed)
        wait_until(
            lambda match=match: Match.objects.get(pk=match.id).status == "finished",
            60,
            f"match {match.id} to finish",
            workers.tail(),
        )
        seen.append(_other_backends())
    assert seen[0], "the worker's connection should stay open after its task"
    assert seen[0] == seen[1] == seen[2]
