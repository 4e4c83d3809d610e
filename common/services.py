"""Probing PostgreSQL and Redis before start-up (`manage.py prepare_services`), never on import of the settings.

The database named by DATABASE_URL is created when the server is reachable but the database is
missing. When a server cannot be reached, prepare_services chooses the embedded fallback and says so.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import TypedDict
from urllib.parse import urlsplit

import dj_database_url
import psycopg
import redis
from psycopg import sql


@dataclass(frozen=True)
class PostgresTarget:
    host: str
    port: int
    user: str
    password: str
    name: str


def parse_postgres_url(url: str) -> PostgresTarget:
    """Where DATABASE_URL points (read by dj-database-url, as the settings read it), with the local defaults."""
    if urlsplit(url).scheme not in {"postgres", "postgresql"}:
        raise ValueError(f"DATABASE_URL must start with postgres:// or sqlite:///, got {url!r}")
    config = dj_database_url.parse(url)
    return PostgresTarget(
        host=str(config.get("HOST") or "127.0.0.1"),
        port=int(config.get("PORT") or 5432),
        user=str(config.get("USER") or "postgres"),
        password=str(config.get("PASSWORD") or ""),
        name=str(config.get("NAME") or "arena"),
    )


class _ConnectParams(TypedDict):
    host: str
    port: int
    user: str
    password: str | None
    connect_timeout: int


def database_tag(name: object) -> str:
    """A database's name as it stands in Redis key names: safe characters only, at most 60 of them."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", str(name))[-60:]


def ensure_postgres_database(target: PostgresTarget, timeout: int = 3) -> str | None:
    """Create the database if missing. Returns None when usable, else why it is not."""
    params: _ConnectParams = {
        "host": target.host,
        "port": target.port,
        "user": target.user,
        "password": target.password or None,
        "connect_timeout": timeout,
    }
    try:
        with psycopg.connect(dbname=target.name, **params):
            return None
    except psycopg.OperationalError as exc:
        if "does not exist" not in str(exc):
            return str(exc).strip().splitlines()[0] if str(exc).strip() else repr(exc)
    try:
        with psycopg.connect(dbname="postgres", autocommit=True, **params) as conn:
            try:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(target.name)))
                print(f"Created PostgreSQL database {target.name!r}.", file=sys.stderr)
            except psycopg.errors.DuplicateDatabase:
                pass  # created concurrently by another process: fine
    except psycopg.Error as exc:
        return str(exc).strip().splitlines()[0]
    return None


def redis_reachable(url: str, timeout: float = 2.0) -> str | None:
    """None when Redis answers PING, else why it does not."""
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        client.ping()
        client.close()
    except redis.RedisError as exc:
        return str(exc) or repr(exc)
    return None
