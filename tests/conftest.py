"""Shared fixtures: real PostgreSQL and Redis, bot players, and real Celery worker processes; the tiers.

Every test belongs to one tier, chosen here from the fixtures it uses (`pytest -m unit|db|system`):
- `unit`: in this process, no database, no Redis (rules, Elo, pairing, placing, protocol); a unit test that
  opens a connection fails;
- `db`: the test database (pytest-django) and Redis, in this process; pytest-xdist runs them in parallel;
- `system`: real Celery workers, Chromium, the bubblewrap sandbox (a submitted bot's validation included),
  a transactional database, or other processes; one at a time.
A test that is `system` for a reason its fixtures do not show (it starts processes itself, or simulates many
games) says so with `@pytest.mark.system`; an explicit tier mark always wins.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
import redis
import redis.connection
from celery import current_app
from django.conf import settings
from django.db import connection

from arena.builtin import ensure_builtin_bots
from arena.models import Player
from common.services import database_tag
from games.registry import all_games
from ratings.leaderboard import index
from tests.support import Workers, clear_test_cache

# Submitted bots' fixtures (users, clients, `submit`, `bot_settings`), for every folder that seats them.
pytest_plugins = ["tests.submitted_bots"]

TIERS = ("unit", "db", "system")
# Fixtures that make a test `system`: worker processes, a browser, a served site, a transactional database
# (flushed after the test, and what the served site and the workers need), the bubblewrap sandbox.
SYSTEM_FIXTURES = frozenset(
    {
        "workers",
        "browser",
        "site",
        "live_server",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "sandbox",
        "start_bot",
        "run",  # tests/botclient: `part-du-chef` with its bots in the sandbox
        "submit",  # tests/submitted_bots.py: a submitted bot, validated by games in the sandbox
    }
)
# Fixtures that make a test at least `db`: the test database, or this run's queue in Redis.
DB_FIXTURES = frozenset({"db", "_django_db_helper", "django_db_setup", "_real_services", "empty_queue"})


def pytest_configure(config: pytest.Config) -> None:
    """Cache keys of this run carry the test database's name, as the workers' keys do (same formula); under
    pytest-xdist each worker has a database of its own (`test_<name>_gw0`, ...) and so keys of its own.
    Passwords are hashed with a fast hasher in this run only: the service keeps its slow one."""
    db = settings.DATABASES["default"]
    name = (db.get("TEST") or {}).get("NAME") or f"test_{db['NAME']}"
    worker = getattr(config, "workerinput", {}).get("workerid")
    if worker:
        name = f"{name}_{worker}"  # pytest-django's suffix for the database of an xdist worker
    if "KEY_PREFIX" in settings.CACHES["default"]:
        settings.CACHES["default"]["KEY_PREFIX"] = f"arena:{database_tag(name)}"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _tier(item: pytest.Item) -> str:
    """The tier of a test from its fixtures and its django_db mark."""
    fixtures = set(getattr(item, "fixturenames", ()))
    marker = item.get_closest_marker("django_db")
    transactional = marker is not None and bool(
        marker.kwargs.get("transaction", marker.args[0] if marker.args else False)
        or marker.kwargs.get("reset_sequences")
        or marker.kwargs.get("serialized_rollback")
    )
    if fixtures & SYSTEM_FIXTURES or transactional:
        return "system"
    if fixtures & DB_FIXTURES or marker is not None:
        return "db"
    return "unit"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give every test its tier mark, so that `-m unit`, `-m db` and `-m system` split the suite exactly."""
    for item in items:
        explicit = [name for name in TIERS if item.get_closest_marker(name)]
        if len(explicit) > 1:
            raise pytest.UsageError(f"{item.nodeid} is marked {' and '.join(explicit)}: a test has one tier")
        automatic = _tier(item)
        if explicit == ["unit"] and automatic != "unit":
            raise pytest.UsageError(f"{item.nodeid} is marked unit but its fixtures need the {automatic} tier")
        if not explicit:
            item.add_marker(automatic)


def _uses_services(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("unit") is None


def _uses_database(request: pytest.FixtureRequest) -> bool:
    return "_django_db_helper" in request.fixturenames or request.node.get_closest_marker("django_db") is not None


@pytest.fixture(autouse=True)
def _unit_tests_reach_no_service(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A unit test that opens a Redis or PostgreSQL connection fails, naming the tier it needs (pytest-django
    already refuses the database through Django to tests without one)."""
    if _uses_services(request):
        return

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"{request.node.nodeid} is a unit test: it may not reach Redis or PostgreSQL (mark it db)")

    monkeypatch.setattr(redis.connection.AbstractConnection, "connect", refuse)
    monkeypatch.setattr(psycopg, "connect", refuse)
    monkeypatch.setattr(psycopg.Connection, "connect", refuse)


@pytest.fixture(scope="session")
def _real_services() -> Iterator[str]:
    """The tests of the db and system tiers run against the real PostgreSQL and Redis, on a queue of their own."""
    if settings.DATABASE_FALLBACK or settings.REDIS_FALLBACK:
        pytest.exit("the tests need PostgreSQL and Redis; start them (make test does)", returncode=3)
    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=3).ping()
    except redis.RedisError as exc:
        pytest.exit(f"the tests need Redis at {settings.REDIS_URL}: {exc}", returncode=3)
    # The pid keeps the queues of two runs (or two xdist workers) on one database apart.
    queue = f"arena-test-{settings.DATABASES['default']['NAME']}-{os.getpid()}"
    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    # The workers a test starts derive theirs the same way from ARENA_QUEUE (config/settings.py).
    settings.ARENA_PERIODIC_QUEUE = f"{queue}-periodic"
    # Routes name the periodic queue too: never the one a running service's beat and workers use.
    routes = {name: {"queue": settings.ARENA_PERIODIC_QUEUE} for name in settings.CELERY_TASK_ROUTES}
    settings.CELERY_TASK_ROUTES = routes
    current_app.conf.task_routes = routes
    yield queue
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.delete(queue, settings.ARENA_PERIODIC_QUEUE)
    client.close()


@pytest.fixture(autouse=True)
def _clean_cache(request: pytest.FixtureRequest) -> Iterator[None]:
    """Throttle counters and page caches start empty in every test that may use them (the db and system
    tiers); only this run's keys are deleted. Unit tests touch neither Redis nor the database."""
    if not _uses_services(request):
        yield
        return
    request.getfixturevalue("_real_services")
    clear_test_cache()
    yield
    clear_test_cache()


@pytest.fixture(autouse=True)
def _no_leaderboard_index_from_earlier_tests(request: pytest.FixtureRequest) -> None:
    """The Redis leaderboard index outlives a test's database rows; each test of the database starts without one."""
    if not _uses_database(request):
        return
    request.getfixturevalue("django_db_setup")  # the index's keys carry the test database's name
    if str(connection.settings_dict["NAME"]).startswith("test_"):
        for spec in all_games():
            index.forget(str(spec.key))


@pytest.fixture
def empty_queue(_real_services: str) -> Iterator[str]:
    """This run's play queue in the broker, emptied: no message left over from an earlier test."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.delete(_real_services)
    yield _real_services
    client.delete(_real_services)
    client.close()


@pytest.fixture
def make_bots(db: None) -> Callable[..., list[Any]]:
    """Bot players played by a built-in engine, under names of their own."""

    def make(count: int, engine: str = "random", prefix: str = "bot") -> list[Player]:
        start = Player.objects.filter(name__startswith=f"{prefix}-").count()
        return [
            Player.objects.create(name=f"{prefix}-{start + i}", kind=Player.Kind.BOT, builtin=engine)
            for i in range(count)
        ]

    return make


@pytest.fixture(autouse=True)
def _builtin_bots_after_a_flush(request: pytest.FixtureRequest, django_db_blocker: Any) -> None:
    """A transactional test's database is flushed after it, and with it the built-in bots that every
    migrated database has (the house ladder, validation's opponents): every system test of the database
    finds them again before it starts, whatever ran before it."""
    if _tier(request.node) == "system" and _uses_database(request):
        with django_db_blocker.unblock():
            ensure_builtin_bots(Player)


@pytest.fixture
def workers(_real_services: str, transactional_db: None) -> Iterator[Workers]:
    pool = Workers(_real_services)
    yield pool
    pool.stop_all()
