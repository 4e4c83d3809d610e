"""The service's own Redis keys (leaderboard index, live updates): one client per process, one namespace.

One Redis serves every database the service may point at (development, tests, benchmarks), so each
key starts with the database's name; the cache's KEY_PREFIX in settings follows the same rule.
"""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import connection

from common.services import database_tag

_client: redis.Redis | None = None


def client() -> redis.Redis | None:
    """The process' Redis client, or None when the service runs without Redis."""
    global _client
    if settings.REDIS_FALLBACK:
        return None
    if _client is None:
        _client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2.0, socket_connect_timeout=2.0)
    return _client


def namespace() -> str:
    """Where this database's keys live: `arena:<database>`."""
    return f"arena:{database_tag(connection.settings_dict['NAME'])}"
