"""Helpers for tests that run real Celery worker processes."""

from __future__ import annotations

import os
import signal
import socket
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
        self.schedules: list[Path] = []

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

    def start(self, name: str, concurrency: int = 1, *, gossip: bool = False, **extra: str) -> subprocess.Popen[bytes]:
        """A worker; `gossip` keeps gossip and mingle on, as a worker started by hand or `make run` has them."""
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
                *([] if gossip else ["--without-gossip", "--without-mingle"]),
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

    def start_beat(self, name: str = "beat", **extra: str) -> subprocess.Popen[bytes]:
        """`celery -A config beat` on this run's periodic queue, its schedule file under var/."""
        log = ROOT / "var" / f"test-worker-{os.getpid()}-{name}.log"
        schedule = ROOT / "var" / f"test-beat-{os.getpid()}-{name}.schedule"
        log.parent.mkdir(exist_ok=True)
        handle = log.open("wb")
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=WARNING", f"--schedule={schedule}"],
            cwd=ROOT,
            env=self.environment(**extra),
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes.append(process)
        self.logs.append(log)
        self.schedules.append(schedule)
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
        for schedule in self.schedules:
            for path in schedule.parent.glob(f"{schedule.name}*"):
                path.unlink(missing_ok=True)

    def tail(self) -> str:
        return "\n".join(log.read_text(errors="replace")[-3000:] for log in self.logs if log.exists())


class PrivateRedis:
    """A redis-server of the test's own on a free port, without persistence, that it may restart.

    Never the machine's shared Redis: other services use it. Restarting this one drops every key
    (queued messages included), as a Redis without persistence does.
    """

    def __init__(self) -> None:
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None
        self.restarts = 0

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_until(self._answers, 30, f"redis-server on port {self.port} to answer")

    def _answers(self) -> bool:
        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()
        self.restarts += 1


def _free_port() -> int:
    """A port from 6390 up that nothing listens on."""
    for port in range(6390, 6490):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port for a private redis-server in 6390-6489")


def wait_until(predicate: Callable[[], bool], timeout: float, what: str, on_fail: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}\n{on_fail}")
