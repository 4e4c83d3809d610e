"""A crowd of readers against the server `make run` starts (scripts/run.sh's gunicorn command: uvicorn workers,
two processes) never gets a 5xx, and the server's PostgreSQL connections never exceed its processes' pools
(web processes x ARENA_DB_POOL_MAX_SIZE), however many requests run at once: a second crowd opens none
beyond the first's, and once the crowd leaves the pools shrink back to their minimum.

Under ASGI each request runs on a thread of its own; with a persistent connection per thread, 48 readers
for 25 s left 75 connections open after they left, and PostgreSQL's 100 ran out.

The crowd's size and length, and the pool's size, come from the environment (ARENA_TEST_CROWD_CLIENTS,
ARENA_TEST_CROWD_SECONDS, ARENA_TEST_POOL_MAX_SIZE), so that the suite fits beside other users of the server.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections import Counter
from typing import Any

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.authtoken.models import Token

from arena.models import Player
from tests.served import call, make_run_command, make_run_server, wait_for_the_servers_sessions_to_end
from tests.support import Workers, wait_until

pytestmark = pytest.mark.system

CLIENTS = int(os.environ.get("ARENA_TEST_CROWD_CLIENTS", "48"))
SECONDS = float(os.environ.get("ARENA_TEST_CROWD_SECONDS", "25"))
POOL_MAX = int(os.environ.get("ARENA_TEST_POOL_MAX_SIZE", "3"))
POOL_MIN = 1


class Sampler:
    """Counts the server's sessions on the test database (every one but this test's own) while it runs, on
    one connection of its own; and checks that they name themselves as web processes (application_name)."""

    def __init__(self) -> None:
        settings = connection.settings_dict
        self.probe = psycopg.connect(
            host=str(settings["HOST"]),
            port=int(settings["PORT"]),
            user=str(settings["USER"]),
            dbname="postgres",
            autocommit=True,
            connect_timeout=5,
        )
        self.database = str(settings["NAME"])
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            self.own = int(cursor.fetchone()[0])
        self.samples: list[int] = []
        self.names: set[str] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def count(self) -> int:
        rows = self.probe.execute(
            "SELECT application_name FROM pg_stat_activity WHERE datname = %s AND pid <> %s",
            [self.database, self.own],
        ).fetchall()
        self.names.update(str(name) for (name,) in rows)
        return len(rows)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.samples.append(self.count())
            self._stop.wait(0.1)

    def __enter__(self) -> Sampler:
        self.samples = []
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        assert self._thread is not None
        self._thread.join(timeout=30)

    def close(self) -> None:
        self.probe.close()


def _crowd(base: str, token: str, player_id: int) -> Counter[str]:
    """CLIENTS readers for SECONDS: pages, the leaderboard, a profile, and token-authenticated API calls."""
    auth = {"Authorization": f"Token {token}"}
    paths: list[tuple[str, dict[str, str]]] = [
        ("/api/leaderboards/part-du-chef/", {}),
        ("/leaderboard/part-du-chef/", {}),
        (f"/players/{player_id}/", {}),
        (f"/api/players/{player_id}/", auth),
        ("/api/matches/", auth),
        ("/", {}),
        ("/api/arena/entries/", auth),
    ]
    answers: Counter[str] = Counter()
    lock = threading.Lock()
    ends = time.monotonic() + SECONDS

    def reader(start: int) -> None:
        for path, headers in itertools.islice(itertools.cycle(paths), start, None):
            if time.monotonic() >= ends:
                return
            try:
                status = str(call(base, path, headers=headers, timeout=120).status)
            except OSError as exc:
                status = f"{path}: {type(exc).__name__}"
            with lock:
                answers[status] += 1

    threads = [threading.Thread(target=reader, args=(index,), daemon=True) for index in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=SECONDS + 180)
    return answers


@pytest.fixture
def reader(transactional_db: None) -> tuple[str, int]:
    user = User.objects.create_user("reader", password="a-long-passphrase")
    token = Token.objects.create(user=user)
    player = Player.objects.filter(kind=Player.Kind.BOT).order_by("id").first()
    assert player is not None  # the built-in bots of every migrated database
    return token.key, player.id


def test_a_crowd_of_readers_gets_no_5xx_and_the_connections_stay_within_the_pools(
    _real_services: str, reader: tuple[str, int]
) -> None:
    token, player_id = reader
    processes = int(make_run_command(0)[-1])
    total = processes * POOL_MAX
    environment = Workers(_real_services).environment(
        LOG_LEVEL="ERROR",
        ARENA_DB_POOL_MAX_SIZE=str(POOL_MAX),
        ARENA_DB_POOL_MIN_SIZE=str(POOL_MIN),
        # Shrinks one idle connection per process per second, so the fall-back is seen soon.
        ARENA_DB_POOL_MAX_IDLE="1",
        # A shared, loaded machine: a request may wait its turn for a connection longer than in production.
        ARENA_DB_POOL_TIMEOUT=os.environ.get("ARENA_TEST_POOL_TIMEOUT", "30"),
    )
    environment.pop("DATABASE_CONN_MAX_AGE", None)  # make run's default
    sampler = Sampler()
    try:
        with make_run_server(environment) as base:
            with sampler:
                first = _crowd(base, token, player_id)
            during_first, after_first = max(sampler.samples), sampler.count()
            with sampler:
                second = _crowd(base, token, player_id)
            during_second, after_second = max(sampler.samples), sampler.count()
            report: dict[str, Any] = {
                "first": dict(first),
                "second": dict(second),
                "peaks": (during_first, during_second),
                "after": (after_first, after_second),
                "total": total,
                "names": sampler.names,
            }
            print(f"crowd of {CLIENTS} for {SECONDS:.0f}s, twice:", report)
            assert set(first) | set(second) == {"200"}, report
            assert sampler.names == {"arena-web"}, report
            assert during_first <= total and during_second <= total, report
            # The second crowd opened nothing the first had not.
            assert after_second <= max(during_first, after_first), report
            wait_until(
                lambda: sampler.count() <= processes * POOL_MIN,
                120,
                f"the pools to shrink back to {POOL_MIN} connection per process",
                on_fail=str(report),
            )
    finally:
        sampler.close()
        wait_for_the_servers_sessions_to_end()
