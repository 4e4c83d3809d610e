"""Rated matches survive the workers' database connections being cut again and again.

Every 3 seconds for a minute, each backend of the test database but the test's own is terminated
(`pg_terminate_backend`), as a PostgreSQL restart or failover does to its clients, while real
workers play queued rated matches. A task whose connection breaks reconnects and carries on, or
gives back what it did not commit: no match fails, none is rated twice, and the ratings equal a
replay of the ledger.
"""

from __future__ import annotations

import threading
import time

import psycopg
import pytest
from django.db import connection

from arena.matches import create_match
from arena.models import Match, MatchSeat
from ratings.ledger import verify_ratings
from ratings.models import Rating, RatingChange
from tests.support import wait_until

MATCHES = 120
EVERY = 3.0
FOR = 60.0


def _dsn() -> str:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgresql://{auth}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


class Terminator(threading.Thread):
    """Terminates the workers' backends every EVERY seconds until stopped or FOR seconds passed."""

    def __init__(self, spare: int) -> None:
        super().__init__(daemon=True)
        self.spare = spare  # the test's own backend
        self.stop = threading.Event()
        self.rounds = 0
        self.terminated = 0

    def run(self) -> None:
        ends = time.monotonic() + FOR
        with psycopg.connect(_dsn(), autocommit=True) as admin:
            while not self.stop.wait(EVERY) and time.monotonic() < ends:
                (count,) = admin.execute(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid NOT IN (pg_backend_pid(), %s)",
                    [self.spare],
                ).fetchone() or (0,)
                self.rounds += 1
                self.terminated += int(count)


@pytest.mark.system
def test_queued_rated_matches_all_finish_rated_once_while_database_backends_are_terminated(workers, make_bots) -> None:
    players = make_bots(12)
    environment = {
        "ARENA_MATCH_LEASE_SECONDS": "30",
        "ARENA_SWEEP_SECONDS": "2",
        "ARENA_QUEUED_RESEND_SECONDS": "5",
        # Games slow enough that the workers are mid-task, connected, at most terminations.
        "ARENA_BOT_MOVE_DELAY_SECONDS": "0.04",
    }
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (own_pid,) = cursor.fetchone()
    for name in ("blip-a", "blip-b"):
        workers.start(name, **environment)
    workers.start_beat("blip-beat", **environment)
    matches = [
        create_match(
            game="part-du-chef",
            kind="ranked",
            player_ids=[players[(index + step) % len(players)].id for step in range(2 + index % 3)],
            seed=index,
        )
        for index in range(MATCHES)
    ]
    ids = [match.id for match in matches]
    terminator = Terminator(own_pid)
    terminator.start()

    def all_done() -> bool:
        return Match.objects.filter(pk__in=ids, status__in=["finished", "failed"]).count() == MATCHES

    try:
        wait_until(all_done, 170, "every match to finish", workers.tail())
    finally:
        terminator.stop.set()
        terminator.join(30)
    assert terminator.terminated > 0, "no backend was ever terminated: the test tested nothing"
    assert list(Match.objects.filter(pk__in=ids).exclude(status="finished").values_list("pk", "error")) == []
    # No attempt was used up by an outage: every match finished on the attempt it was first claimed for.
    attempts = sorted(Match.objects.filter(pk__in=ids).values_list("attempt", flat=True))
    assert set(attempts) == {1}
    assert all(process.poll() is None for process in workers.processes), workers.tail()
    assert RatingChange.objects.filter(match_id__in=ids).count() == MatchSeat.objects.filter(match_id__in=ids).count()
    # Ratings, games, deviations and times of the last game all follow from the ledger (raises otherwise).
    replayed = verify_ratings("part-du-chef")
    assert {player: state.games for player, state in replayed.items()} == dict(
        Rating.objects.filter(game="part-du-chef", games__gt=0).values_list("player_id", "games")
    )
