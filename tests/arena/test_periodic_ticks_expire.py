"""Beat's ticks expire after their interval, so they never pile up while no worker runs."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
import redis
from django.conf import settings

from tests.support import wait_until


@pytest.mark.system
def test_every_tick_beat_sends_expires_after_its_interval(workers) -> None:
    periodic = f"{workers.queue}-periodic"  # what beat started with ARENA_QUEUE routes its ticks to
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.delete(periodic)
    try:
        began = datetime.now(UTC)
        workers.start_beat("ticks")  # the default intervals, as in this process's settings
        wait_until(lambda: client.llen(periodic) >= 4, 90, "beat to send a few ticks", workers.tail())
        intervals = {entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
        now = datetime.now(UTC)
        for raw in client.lrange(periodic, 0, -1):
            headers = json.loads(raw)["headers"]
            # Sent between `began` and `now`, each expires one interval after it was sent.
            expires = datetime.fromisoformat(headers["expires"])
            interval = timedelta(seconds=intervals[headers["task"]])
            assert began + interval <= expires + timedelta(seconds=1)
            assert expires <= now + interval + timedelta(seconds=1)
    finally:
        client.delete(periodic)
        client.close()
