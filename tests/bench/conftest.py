"""What the benchmarks' tests share: a clean state, as in a fresh clone, and the environment to run one in."""

from __future__ import annotations

import os
from collections.abc import Iterator

import psycopg
import pytest
from django.conf import settings
from psycopg import sql

SUFFIXES = ("_bench", "_bench_a", "_bench_b", "_bench_bots", "_bench_compare", "_bench_profile", "_board", "_crowd")


def _connect() -> psycopg.Connection[tuple[object, ...]]:
    db = settings.DATABASES["default"]
    return psycopg.connect(
        dbname="postgres",
        host=db["HOST"] or "127.0.0.1",
        port=int(db["PORT"] or 5432),
        user=db["USER"],
        password=db["PASSWORD"] or None,
        autocommit=True,
    )


def _drop_bench_databases() -> None:
    name = settings.DATABASES["default"]["NAME"]
    with _connect() as conn:
        for suffix in SUFFIXES:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name + suffix)))


@pytest.fixture
def clean_state() -> Iterator[dict[str, str]]:
    """No benchmark database exists before the run (a fresh clone), none is left after it."""
    _drop_bench_databases()
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    url = f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {key: value for key, value in os.environ.items() if not key.startswith(("ARENA_QUEUE", "ARENA_PERIODIC"))}
    # As by hand (README: `export SECRET_KEY="$(cat var/secret_key)"`): the settings want a key outside pytest.
    env.update(
        DATABASE_URL=url, REDIS_URL=settings.REDIS_URL, PYTHONDONTWRITEBYTECODE="1", SECRET_KEY=settings.SECRET_KEY
    )
    env.pop("DJANGO_SETTINGS_MODULE", None)
    yield env
    _drop_bench_databases()
