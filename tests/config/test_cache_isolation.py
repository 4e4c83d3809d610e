"""The tests' cache keys carry the test database's name, and cleaning deletes only those keys."""

from __future__ import annotations

import pytest
import redis
from django.conf import settings
from django.core.cache import cache

from tests.support import clear_test_cache

# The test database set up first: under pytest-xdist its name (and so the keys') carries the worker's suffix.
pytestmark = pytest.mark.usefixtures("django_db_setup")


def test_cache_keys_carry_the_test_database_name() -> None:
    name = settings.DATABASES["default"]["TEST"]["NAME"]
    assert settings.CACHES["default"]["KEY_PREFIX"] == f"arena:{name}"
    assert cache.make_key("x").startswith(f"arena:{name}:")


def test_cleaning_deletes_only_this_runs_keys() -> None:
    client = redis.Redis.from_url(settings.CACHES["default"]["LOCATION"])
    foreign = "arena:someone-elses-service:1:page"
    client.set(foreign, b"kept", ex=60)
    cache.set("mine", 1, 60)
    try:
        clear_test_cache()
        assert cache.get("mine") is None
        assert client.get(foreign) == b"kept"
    finally:
        client.delete(foreign)
        client.close()
