"""Settings come from the environment through typed readers with local defaults."""

from __future__ import annotations

import os
import subprocess
import sys

import psycopg
import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from common.env import env_bool, env_float, env_int, env_list, env_str
from common.services import parse_postgres_url
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


def test_a_value_outside_a_settings_range_is_refused_naming_the_range_never_clamped(monkeypatch) -> None:
    monkeypatch.setenv("ARENA_X", "80")
    with pytest.raises(ImproperlyConfigured, match="^ARENA_X must be between 1 and 50, got 80$"):
        env_int("ARENA_X", 10, minimum=1, maximum=50)
    monkeypatch.setenv("ARENA_X", "0")
    with pytest.raises(ImproperlyConfigured, match="^ARENA_X must be at least 1, got 0$"):
        env_int("ARENA_X", 4, minimum=1)
    monkeypatch.setenv("ARENA_X", "12.5")
    with pytest.raises(ImproperlyConfigured, match="^ARENA_X must be at least 24.0, got 12.5$"):
        env_float("ARENA_X", 24.0, minimum=24.0)
    monkeypatch.setenv("ARENA_X", "50")
    assert env_int("ARENA_X", 10, minimum=1, maximum=50) == 50
    monkeypatch.delenv("ARENA_X")
    assert env_float("ARENA_X", 24.0, minimum=24.0) == 24.0


@pytest.mark.system
def test_the_service_does_not_start_with_a_setting_outside_its_range() -> None:
    result = _run(["-c", _SHOW], SECRET_KEY="k" * 60, ARENA_COMPARE_MAX_DEALS="80")
    assert result.returncode != 0
    assert "ImproperlyConfigured: ARENA_COMPARE_MAX_DEALS must be between 1 and 50, got 80" in result.stderr


def test_database_urls_are_parsed_with_local_defaults() -> None:
    target = parse_postgres_url("postgres://postgres@127.0.0.1:5432/arena")
    assert (target.host, target.port, target.user, target.name) == ("127.0.0.1", 5432, "postgres", "arena")
    assert parse_postgres_url("postgresql://u:p%40ss@db/x").password == "p@ss"
    with pytest.raises(ValueError, match="DATABASE_URL"):
        parse_postgres_url("mysql://x/y")


def test_the_test_database_name_derives_from_database_url(db: None, worker_id: str) -> None:
    configured = parse_postgres_url(settings.DATABASE_URL).name
    # Each pytest-xdist worker (gw0, gw1, ...) has a test database of its own.
    suffix = "" if worker_id == "master" else f"_{worker_id}"
    assert settings.DATABASES["default"]["NAME"] == f"test_{configured}{suffix}"
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def _run(code: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    full.update(env)
    return subprocess.run([sys.executable, *code], cwd=ROOT, env=full, capture_output=True, text=True, timeout=60)


_SHOW = (
    "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'; django.setup();"
    "from django.conf import settings as s;"
    "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, s.CACHES['default']['BACKEND'])"
)
_UNREACHABLE = {"DATABASE_URL": "postgres://postgres@127.0.0.1:1/arena", "REDIS_URL": "redis://127.0.0.1:1/0"}


def _exports(stdout: str) -> dict[str, str]:
    return dict(line.removeprefix("export ").split("=", 1) for line in stdout.split("\n") if line.startswith("export "))


@pytest.mark.system
def test_importing_the_settings_opens_no_connection() -> None:
    code = (
        "import socket\n"
        "def refuse(*a, **k): raise AssertionError('the settings opened a connection')\n"
        "socket.socket.connect = refuse; socket.create_connection = refuse\n"
        + _SHOW.replace("; ", "\n").replace(";", "\n")
    )
    result = _run(["-c", code], SECRET_KEY="k" * 60, ARENA_REQUIRE_SERVICES="1", **_UNREACHABLE)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == "django.db.backends.postgresql"


@pytest.mark.system
def test_prepare_services_chooses_the_embedded_fallbacks_and_says_so_when_services_are_unreachable() -> None:
    result = _run(["manage.py", "prepare_services"], **_UNREACHABLE)
    assert result.returncode == 0, result.stderr
    assert "PostgreSQL unreachable" in result.stderr and "falling back to embedded SQLite" in result.stderr
    assert "Redis unreachable" in result.stderr and "in-process" in result.stderr
    exports = _exports(result.stdout)
    assert exports == {"ARENA_DATABASE_FALLBACK": "1", "ARENA_REDIS_FALLBACK": "1"}
    shown = _run(["-c", _SHOW], SECRET_KEY="k" * 60, **_UNREACHABLE, **exports)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.split() == [
        "django.db.backends.sqlite3",
        "True",
        "django.core.cache.backends.locmem.LocMemCache",
    ]


@pytest.mark.system
def test_it_refuses_to_fall_back_when_services_are_required() -> None:
    result = _run(["manage.py", "prepare_services"], ARENA_REQUIRE_SERVICES="1", **_UNREACHABLE)
    assert result.returncode != 0
    assert "PostgreSQL is required but unreachable" in result.stderr
    chosen = _run(["-c", _SHOW], SECRET_KEY="k" * 60, ARENA_REQUIRE_SERVICES="1", ARENA_REDIS_FALLBACK="1")
    assert chosen.returncode != 0
    assert "Redis is required but unreachable" in chosen.stderr


@pytest.mark.system
def test_prepare_services_creates_the_database_named_by_database_url_when_missing() -> None:
    name = f"arena_autocreate_{os.getpid()}"
    result = _run(["manage.py", "prepare_services"], DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{name}")
    try:
        assert result.returncode == 0, result.stderr
        assert f"Created PostgreSQL database '{name}'" in result.stderr
        assert _exports(result.stdout)["ARENA_DATABASE_FALLBACK"] == "0"
    finally:
        with psycopg.connect(host="127.0.0.1", user="postgres", dbname="postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
