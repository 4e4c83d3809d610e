"""Helpers for tests that run real Celery worker processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import redis
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def clear_test_cache() -> None:
    """Delete this run's cache keys (SCAN + DEL on its prefix), never FLUSHDB: other services share Redis."""
    prefix = settings.CACHES["default"].get("KEY_PREFIX")
    if not prefix:
        return  # a local-memory cache, private to this process
    client = redis.Redis.from_url(settings.CACHES["default"]["LOCATION"])
    try:
        batch: list[bytes] = []
        for key in client.scan_iter(match=f"{prefix}:*", count=500):
            batch.append(key)
            if len(batch) >= 500:
                client.delete(*batch)
                batch.clear()
        if batch:
            client.delete(*batch)
    finally:
        client.close()


class Workers:
    """Real `celery -A config worker` processes on this test run's queue and test database."""

    def __init__(self, queue: str) -> None:
        self.queue = queue
        self.processes: list[subprocess.Popen[bytes]] = []
        self.logs: list[Path] = []

    def environment(self, **extra: str) -> dict[str, str]:
        db = connection.settings_dict
        url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
        if db["PASSWORD"]:
            url = f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
        env = dict(os.environ)
        env.update(
            DATABASE_URL=url,
            ARENA_QUEUE=self.queue,
            ARENA_REQUIRE_SERVICES="1",
            DATABASE_CONN_MAX_AGE="0",
            PYTHONUNBUFFERED="1",
            SECRET_KEY=settings.SECRET_KEY,
        )
        env.update(extra)
        return env

    def start(self, name: str, concurrency: int = 1, **extra: str) -> subprocess.Popen[bytes]:
        log = ROOT / "var" / f"test-worker-{os.getpid()}-{name}.log"
        log.parent.mkdir(exist_ok=True)
        handle = log.open("wb")
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=prefork",
                f"--concurrency={concurrency}",
                f"--hostname={name}-{os.getpid()}@%h",
                "--without-gossip",
                "--without-mingle",
                "--loglevel=WARNING",
            ],
            cwd=ROOT,
            env=self.environment(**extra),
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes.append(process)
        self.logs.append(log)
        return process

    def kill(self, process: subprocess.Popen[bytes]) -> None:
        """kill -9 the worker and its pool children: no shutdown handler gets to run."""
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(timeout=30)

    def stop_all(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                    process.wait(timeout=20)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    self.kill(process)
        for log in self.logs:
            log.unlink(missing_ok=True)

    def tail(self) -> str:
        return "\n".join(log.read_text(errors="replace")[-3000:] for log in self.logs if log.exists())


def wait_until(predicate: Callable[[], bool], timeout: float, what: str, on_fail: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}\n{on_fail}")
