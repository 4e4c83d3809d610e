"""The database settings of each kind of process: DATABASE_URL read by dj-database-url, bounded connections, timeouts.

A web process (gunicorn's workers, `runserver`) borrows its connections from a psycopg pool of at
most `ARENA_DB_POOL_MAX_SIZE`: under ASGI every request runs on a thread of its own, and a
persistent connection per thread was never reused nor closed. A request that finds the pool
exhausted waits up to `ARENA_DB_POOL_TIMEOUT` seconds, then answers 503 (config/outages.py).
Celery workers and beat keep one connection per process (`DATABASE_CONN_MAX_AGE`), since a prefork
child runs one task at a time; the lockstep threads of a deal close theirs when done.
So the connections of a whole stack are bounded by its processes, never by the traffic
(docs/deploy.md, "Database connections").

Every process connects with a connect timeout and TCP keepalives (a cut link is noticed, never waited
on for minutes), a statement timeout of its kind, and an `application_name` naming its kind
(`arena-web`, `arena-worker`, `arena-beat`, `arena-manage`) for pg_stat_activity.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from common.env import env_float, env_int, env_str

PROCESS_KINDS = ("web", "worker", "beat", "manage", "test")
POOLED_KINDS = frozenset({"web"})


def _positive_int(name: str, default: int, *, minimum: int = 1) -> int:
    value = env_int(name, default)
    if value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {value}")
    return value


def _positive_seconds(name: str, default: float) -> float:
    value = env_float(name, default)
    if not value > 0 or value == float("inf"):  # NaN is not > 0 either
        raise ImproperlyConfigured(f"{name} must be a number of seconds more than 0, got {value}")
    return value


def process_kind(argv: list[str] | None = None) -> str:
    """What this process is, for its database settings: `ARENA_PROCESS_KIND` if set, else read from its command.

    gunicorn, uvicorn and `manage.py runserver` are `web`; `celery ... worker` and `celery ... beat` are
    `worker` and `beat`; the test run is `test`; any other command (`manage.py migrate`, a shell) `manage`.
    """
    chosen = env_str("ARENA_PROCESS_KIND", "")
    if chosen:
        if chosen not in PROCESS_KINDS:
            raise ImproperlyConfigured(f"ARENA_PROCESS_KIND must be one of {', '.join(PROCESS_KINDS)}, got {chosen!r}")
        return chosen
    args = list(sys.argv if argv is None else argv)
    if argv is None and "pytest" in sys.modules:
        return "test"
    if not args:
        return "manage"
    program = Path(args[0])
    # `python -m celery` and `python -m gunicorn` run the package's __main__.py.
    name = program.parent.name if program.name == "__main__.py" else program.name
    rest = args[1:]
    if name in {"gunicorn", "uvicorn"}:
        return "web"
    if name == "celery":
        for kind in ("worker", "beat"):
            if kind in rest:
                return kind
        return "manage"
    if name == "manage.py" and rest[:1] == ["runserver"]:
        return "web"
    return "manage"


@dataclass(frozen=True)
class PoolSizes:
    """The psycopg pool of one web process (Django's OPTIONS["pool"])."""

    min_size: int
    max_size: int
    timeout: float
    max_idle: float
    max_lifetime: float

    def options(self, name: str) -> dict[str, Any]:
        return {
            "name": name,
            "min_size": self.min_size,
            "max_size": self.max_size,
            "timeout": self.timeout,
            "max_idle": self.max_idle,
            "max_lifetime": self.max_lifetime,
        }


def pool_sizes() -> PoolSizes:
    """The pool's sizes and times from the environment; a bad value fails loudly, naming the variable."""
    max_size = _positive_int("ARENA_DB_POOL_MAX_SIZE", 4)
    min_size = _positive_int("ARENA_DB_POOL_MIN_SIZE", 1, minimum=0)
    if min_size > max_size:
        raise ImproperlyConfigured(
            f"ARENA_DB_POOL_MIN_SIZE ({min_size}) must not exceed ARENA_DB_POOL_MAX_SIZE ({max_size})"
        )
    return PoolSizes(
        min_size=min_size,
        max_size=max_size,
        timeout=_positive_seconds("ARENA_DB_POOL_TIMEOUT", 5.0),
        max_idle=_positive_seconds("ARENA_DB_POOL_MAX_IDLE", 60.0),
        max_lifetime=_positive_seconds("ARENA_DB_POOL_MAX_LIFETIME", 3600.0),
    )


def connect_timeout() -> int:
    """Seconds a connection attempt may take (libpq counts whole seconds, and at least 2)."""
    return _positive_int("ARENA_DB_CONNECT_TIMEOUT", 3, minimum=2)


def statement_timeout_ms(kind: str) -> int:
    """The longest statement of this kind of process, in milliseconds; 0: none (management commands)."""
    if kind == "web":
        return _positive_int("ARENA_DB_STATEMENT_TIMEOUT_MS", 10_000, minimum=0)
    if kind in {"worker", "beat"}:
        return _positive_int("ARENA_DB_WORKER_STATEMENT_TIMEOUT_MS", 60_000, minimum=0)
    return 0


def _postgres_options(kind: str) -> dict[str, Any]:
    options: dict[str, Any] = {
        "connect_timeout": connect_timeout(),
        "application_name": f"arena-{kind}",
        # A peer that vanished (a cut link, a host gone) is noticed in about a minute, not hours.
        "keepalives": 1,
        "keepalives_idle": _positive_int("ARENA_DB_KEEPALIVES_IDLE", 30),
        "keepalives_interval": 10,
        "keepalives_count": 3,
    }
    statement = statement_timeout_ms(kind)
    if statement:
        options["options"] = f"-c statement_timeout={statement}"
    return options


def database_settings(url: str, kind: str) -> dict[str, Any]:
    """DATABASES["default"] for DATABASE_URL (postgres://, postgresql:// or sqlite:///) in a process of this kind."""
    scheme = urlsplit(url).scheme
    if scheme == "sqlite":
        if not url.startswith("sqlite:///"):
            raise ImproperlyConfigured(f"DATABASE_URL must start with postgres:// or sqlite:///, got {url!r}")
        config: dict[str, Any] = dict(dj_database_url.parse(url))
        config["TEST"] = {"NAME": None}
        return config
    if scheme not in {"postgres", "postgresql"}:
        raise ImproperlyConfigured(f"DATABASE_URL must start with postgres:// or sqlite:///, got {url!r}")
    config = dict(dj_database_url.parse(url, conn_health_checks=True))
    # The local defaults of a bare URL (postgres:///): the server `make run` expects.
    config["NAME"] = config.get("NAME") or "arena"
    config["USER"] = config.get("USER") or "postgres"
    config["HOST"] = config.get("HOST") or "127.0.0.1"
    config["PORT"] = str(config.get("PORT") or 5432)
    options: dict[str, Any] = {**_postgres_options(kind), **config.get("OPTIONS", {})}
    if kind in POOLED_KINDS:
        # Django returns each request's connection to the pool when the request ends (CONN_MAX_AGE 0).
        options["pool"] = pool_sizes().options(f"arena-{kind}-{os.getpid()}")
        config["CONN_MAX_AGE"] = 0
    else:
        config["CONN_MAX_AGE"] = _positive_int("DATABASE_CONN_MAX_AGE", 60, minimum=0)
    config["OPTIONS"] = options
    # Derived from DATABASE_URL so parallel runs against other databases never collide.
    config["TEST"] = {"NAME": f"test_{config['NAME']}"}
    return config


def close_this_threads_connection() -> None:
    """Close the calling thread's own database connection, if it opened one: a thread's connection is
    never reused once the thread ends, so it would stay open. Called on that thread (a table of a
    deal as it ends): `connection` is a per-thread proxy, so its bound `close` taken on another
    thread would close that thread's connection instead, or refuse to."""
    from django.db import connection  # here, not above: settings import this module before Django is set up

    connection.close()
