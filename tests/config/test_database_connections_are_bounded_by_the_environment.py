"""Each kind of process gets its database settings from DATABASE_URL (read by dj-database-url) and the
environment: web processes a connection pool of the sizes given (ARENA_DB_POOL_*), workers and beat one
connection each; every one a connect timeout, TCP keepalives, its statement timeout and its application_name.
A bad value fails loudly, naming the variable."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from common.database import database_settings, pool_sizes, process_kind, statement_timeout_ms
from common.services import parse_postgres_url

pytestmark = pytest.mark.unit

URL = "postgres://postgres@127.0.0.1:5432/arena"


@pytest.fixture(autouse=True)
def _no_database_settings_from_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "ARENA_PROCESS_KIND",
        "ARENA_DB_POOL_MIN_SIZE",
        "ARENA_DB_POOL_MAX_SIZE",
        "ARENA_DB_POOL_TIMEOUT",
        "ARENA_DB_POOL_MAX_IDLE",
        "ARENA_DB_POOL_MAX_LIFETIME",
        "ARENA_DB_CONNECT_TIMEOUT",
        "ARENA_DB_STATEMENT_TIMEOUT_MS",
        "ARENA_DB_WORKER_STATEMENT_TIMEOUT_MS",
        "DATABASE_CONN_MAX_AGE",
    ):
        monkeypatch.delenv(name, raising=False)


def test_a_web_process_borrows_from_a_pool_of_the_sizes_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_DB_POOL_MAX_SIZE", "6")
    monkeypatch.setenv("ARENA_DB_POOL_MIN_SIZE", "2")
    monkeypatch.setenv("ARENA_DB_POOL_TIMEOUT", "2.5")
    monkeypatch.setenv("ARENA_DB_POOL_MAX_IDLE", "30")
    web = database_settings(URL, "web")
    pool = web["OPTIONS"]["pool"]
    assert (pool["min_size"], pool["max_size"], pool["timeout"], pool["max_idle"]) == (2, 6, 2.5, 30.0)
    # Django refuses a pool beside persistent connections: a request gives its connection back when it ends.
    assert web["CONN_MAX_AGE"] == 0 and web["CONN_HEALTH_CHECKS"] is True


def test_the_default_pool_is_small() -> None:
    sizes = pool_sizes()
    assert (sizes.min_size, sizes.max_size, sizes.timeout, sizes.max_idle) == (1, 4, 5.0, 60.0)


def test_workers_and_beat_keep_one_connection_each_and_no_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_CONN_MAX_AGE", "30")
    for kind in ("worker", "beat", "manage"):
        settings = database_settings(URL, kind)
        assert "pool" not in settings["OPTIONS"]
        assert settings["CONN_MAX_AGE"] == 30


def test_every_connection_has_a_connect_timeout_keepalives_and_its_kinds_name_and_statement_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ARENA_DB_CONNECT_TIMEOUT", "4")
    monkeypatch.setenv("ARENA_DB_STATEMENT_TIMEOUT_MS", "7000")
    monkeypatch.setenv("ARENA_DB_WORKER_STATEMENT_TIMEOUT_MS", "90000")
    web, worker, manage = (database_settings(URL, kind)["OPTIONS"] for kind in ("web", "worker", "manage"))
    assert (web["connect_timeout"], web["keepalives"], web["application_name"]) == (4, 1, "arena-web")
    assert web["options"] == "-c statement_timeout=7000"
    assert (worker["application_name"], worker["options"]) == ("arena-worker", "-c statement_timeout=90000")
    assert manage["application_name"] == "arena-manage" and "options" not in manage  # migrations may take long
    assert statement_timeout_ms("beat") == 90000


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("ARENA_DB_POOL_MAX_SIZE", "0", "ARENA_DB_POOL_MAX_SIZE must be at least 1"),
        ("ARENA_DB_POOL_MAX_SIZE", "many", "ARENA_DB_POOL_MAX_SIZE must be an integer"),
        ("ARENA_DB_POOL_MIN_SIZE", "9", r"ARENA_DB_POOL_MIN_SIZE \(9\) must not exceed ARENA_DB_POOL_MAX_SIZE \(4\)"),
        ("ARENA_DB_POOL_MIN_SIZE", "-1", "ARENA_DB_POOL_MIN_SIZE must be at least 0"),
        ("ARENA_DB_POOL_TIMEOUT", "0", "ARENA_DB_POOL_TIMEOUT must be a number of seconds more than 0"),
        ("ARENA_DB_POOL_TIMEOUT", "nan", "ARENA_DB_POOL_TIMEOUT must be a number of seconds more than 0"),
        ("ARENA_DB_POOL_MAX_IDLE", "soon", "ARENA_DB_POOL_MAX_IDLE must be a number"),
        ("ARENA_DB_CONNECT_TIMEOUT", "1", "ARENA_DB_CONNECT_TIMEOUT must be at least 2"),
        ("ARENA_DB_STATEMENT_TIMEOUT_MS", "-5", "ARENA_DB_STATEMENT_TIMEOUT_MS must be at least 0"),
        ("DATABASE_CONN_MAX_AGE", "-1", "DATABASE_CONN_MAX_AGE must be at least 0"),
        ("ARENA_PROCESS_KIND", "cron", "ARENA_PROCESS_KIND must be one of"),
    ],
)
def test_a_bad_value_fails_loudly_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, message: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises((ImproperlyConfigured, ValueError), match=message):
        database_settings(URL, process_kind(["gunicorn"]) if name != "DATABASE_CONN_MAX_AGE" else "worker")


def test_the_kind_of_process_is_read_from_its_command(monkeypatch: pytest.MonkeyPatch) -> None:
    assert process_kind(["/srv/arena/.venv/bin/gunicorn", "config.asgi:application"]) == "web"
    assert process_kind(["/x/site-packages/gunicorn/__main__.py", "config.asgi:application"]) == "web"
    assert process_kind(["manage.py", "runserver"]) == "web"
    assert process_kind(["/x/bin/celery", "-A", "config", "worker", "--concurrency", "2"]) == "worker"
    assert process_kind(["/x/site-packages/celery/__main__.py", "-A", "config", "beat"]) == "beat"
    assert process_kind(["/x/bin/celery", "-A", "config", "inspect", "ping"]) == "manage"
    assert process_kind(["manage.py", "migrate"]) == "manage"
    monkeypatch.setenv("ARENA_PROCESS_KIND", "worker")
    assert process_kind(["/x/bin/gunicorn"]) == "worker"


def test_database_urls_are_read_by_dj_database_url_with_the_local_defaults() -> None:
    settings = database_settings("postgresql://u:p%40ss@db/x?sslmode=require", "worker")
    assert (settings["USER"], settings["PASSWORD"], settings["HOST"], settings["PORT"], settings["NAME"]) == (
        "u",
        "p@ss",
        "db",
        "5432",
        "x",
    )
    assert settings["OPTIONS"]["sslmode"] == "require"
    assert settings["TEST"] == {"NAME": "test_x"}
    bare = database_settings("postgres://", "worker")
    assert (bare["USER"], bare["HOST"], bare["PORT"], bare["NAME"]) == ("postgres", "127.0.0.1", "5432", "arena")
    sqlite = database_settings("sqlite:///var/arena.sqlite3", "web")
    assert (sqlite["ENGINE"], sqlite["NAME"], sqlite["TEST"]) == (
        "django.db.backends.sqlite3",
        "var/arena.sqlite3",
        {"NAME": None},
    )
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL must start with postgres:// or sqlite:///"):
        database_settings("mysql://x/y", "web")
    assert parse_postgres_url("postgresql://u:p%40ss@db/x").password == "p@ss"
