"""Shared fixtures: real PostgreSQL and Redis, bot players, and real Celery worker processes."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from celery import current_app

from tests.support import Workers, clear_test_cache

# Submitted bots' fixtures (users, clients, `submit`, `bot_settings`), for every folder that seats them.
pytest_plugins = ["tests.submitted_bots"]


def pytest_configure(config: pytest.Config) -> None:
    """Cache keys of this run carry the test database's name, as the workers' keys do (same formula)."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    name = (db.get("TEST") or {}).get("NAME") or f"test_{db['NAME']}"
    if "KEY_PREFIX" in settings.CACHES["default"]:
        settings.CACHES["default"]["KEY_PREFIX"] = f"arena:{name}"


@pytest.fixture(autouse=True)
def _clean_cache() -> Iterator[None]:
    """Throttle counters and page caches start empty in every test; only this run's keys are deleted."""
    clear_test_cache()
    yield
    clear_test_cache()


@pytest.fixture(scope="session", autouse=True)
def _real_services() -> Iterator[str]:
    """Every test runs against the real PostgreSQL and Redis, on a queue of its own."""
    import redis
    from django.conf import settings

    if settings.DATABASE_FALLBACK or settings.REDIS_FALLBACK:
        pytest.exit("the tests need PostgreSQL and Redis; start them (make test does)", returncode=3)
    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=3).ping()
    except redis.RedisError as exc:
        pytest.exit(f"the tests need Redis at {settings.REDIS_URL}: {exc}", returncode=3)
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
def _no_leaderboard_index_from_earlier_tests() -> Iterator[None]:
    """The Redis leaderboard index outlives a test's database rows; each test starts without one."""
    from django.db import connection

    from games.registry import all_games
    from ratings.leaderboard import index

    if str(connection.settings_dict["NAME"]).startswith("test_"):
        for spec in all_games():
            index.forget(str(spec.key))
    yield


@pytest.fixture
def empty_queue(_real_services: str) -> Iterator[str]:
    """This run's play queue in the broker, emptied: no message left over from an earlier test."""
    import redis
    from django.conf import settings

    client = redis.Redis.from_url(settings.REDIS_URL)
    client.delete(_real_services)
    yield _real_services
    client.delete(_real_services)
    client.close()


@pytest.fixture
def make_bots(db: None) -> Callable[..., list[Any]]:
    """Bot players played by a built-in engine, under names of their own."""
    from arena.models import Player

    def make(count: int, engine: str = "random", prefix: str = "bot") -> list[Player]:
        start = Player.objects.filter(name__startswith=f"{prefix}-").count()
        return [
            Player.objects.create(name=f"{prefix}-{start + i}", kind=Player.Kind.BOT, builtin=engine)
            for i in range(count)
        ]

    return make


@pytest.fixture
def restore_builtin_bots(django_db_blocker: Any) -> Iterator[None]:
    """List it before `workers`: a transactional test's flush removes the built-in bots that every
    migrated database has; this puts them back after the flush, for the tests that follow."""
    yield
    from arena.builtin import ensure_builtin_bots
    from arena.models import Player

    with django_db_blocker.unblock():
        ensure_builtin_bots(Player)


@pytest.fixture
def workers(_real_services: str, transactional_db: None) -> Iterator[Workers]:
    pool = Workers(_real_services)
    yield pool
    pool.stop_all()
