"""Settings come from the environment through typed readers with local defaults."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings

from config.env import env_bool, env_float, env_int, env_list, env_str
from config.services import parse_postgres_url
from tests.support import ROOT


def test_typed_readers_use_defaults_and_parse_values(monkeypatch) -> None:
    monkeypatch.delenv("ARENA_X", raising=False)
    assert (env_str("ARENA_X", "d"), env_int("ARENA_X", 3), env_bool("ARENA_X", True)) == ("d", 3, True)
    monkeypatch.setenv("ARENA_X", "42")
    assert (env_int("ARENA_X", 0), env_float("ARENA_X", 0.0), env_str("ARENA_X", "")) == (42, 42.0, "42")
    monkeypatch.setenv("ARENA_X", "off")
    assert env_bool("ARENA_X", True) is False
    monkeypatch.setenv("ARENA_X", "a, b,,c")
    assert env_list("ARENA_X", []) == ["a", "b", "c"]


def test_typed_readers_name_the_bad_variable(monkeypatch) -> None:
    monkeypatch.setenv("ARENA_X", "many")
    with pytest.raises(ValueError, match="ARENA_X must be an integer"):
        env_int("ARENA_X", 1)
    with pytest.raises(ValueError, match="ARENA_X must be a boolean"):
        env_bool("ARENA_X", False)


def test_database_urls_are_parsed_with_local_defaults() -> None:
    target = parse_postgres_url("postgres://postgres@127.0.0.1:5432/arena")
    assert (target.host, target.port, target.user, target.name) == ("127.0.0.1", 5432, "postgres", "arena")
    assert parse_postgres_url("postgresql://u:p%40ss@db/x").password == "p@ss"
    with pytest.raises(ValueError, match="DATABASE_URL"):
        parse_postgres_url("mysql://x/y")


def test_the_test_database_name_derives_from_database_url(db: None) -> None:
    configured = parse_postgres_url(settings.DATABASE_URL).name
    assert settings.DATABASES["default"]["NAME"] == f"test_{configured}"
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def _settings_in_subprocess(**env: str) -> subprocess.CompletedProcess[str]:
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'; django.setup();"
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, s.CACHES['default']['BACKEND'])"
    )
    full = {k: v for k, v in os.environ.items() if k not in {"ARENA_REQUIRE_SERVICES"}}
    full.update(env)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=full, capture_output=True, text=True, timeout=60)


def test_it_falls_back_to_embedded_defaults_and_says_so_when_services_are_unreachable(tmp_path) -> None:
    result = _settings_in_subprocess(
        DATABASE_URL="postgres://postgres@127.0.0.1:1/arena", REDIS_URL="redis://127.0.0.1:1/0"
    )
    assert result.returncode == 0, result.stderr
    assert "PostgreSQL unreachable" in result.stderr and "falling back to embedded SQLite" in result.stderr
    assert "Redis unreachable" in result.stderr and "in-process" in result.stderr
    assert result.stdout.split() == [
        "django.db.backends.sqlite3",
        "True",
        "django.core.cache.backends.locmem.LocMemCache",
    ]


def test_it_refuses_to_fall_back_when_services_are_required() -> None:
    result = _settings_in_subprocess(DATABASE_URL="postgres://postgres@127.0.0.1:1/arena", ARENA_REQUIRE_SERVICES="1")
    assert result.returncode != 0
    assert "PostgreSQL is required but unreachable" in result.stderr


def test_it_creates_the_database_named_by_database_url_when_missing() -> None:
    import psycopg

    name = f"arena_autocreate_{os.getpid()}"
    result = _settings_in_subprocess(DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{name}")
    try:
        assert result.returncode == 0, result.stderr
        assert f"Created PostgreSQL database '{name}'" in result.stderr
        assert result.stdout.split()[0] == "django.db.backends.postgresql"
    finally:
        with psycopg.connect(host="127.0.0.1", user="postgres", dbname="postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
