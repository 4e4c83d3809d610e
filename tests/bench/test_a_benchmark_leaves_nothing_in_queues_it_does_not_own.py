"""A benchmark's tasks, queues and Redis keys are its own: the service's queues are left as they were.

Each benchmark runs with the smallest options against a redis-server of the test's own, so that every
key there is accounted for: after the run, the service's default queues (`arena`, `arena-periodic`)
hold what they held before (a marker message each) and every other key belongs to the benchmark's
database (`arena:<database>...`); the benchmark's own queues are gone.
"""

from __future__ import annotations

import pytest
import redis

from common.services import database_tag
from tests.bench.test_benchmarks_run import _run
from tests.support import PrivateRedis

# (script and its smallest options, the suffix of the database it makes)
BENCHMARKS = {
    "submitted matches": (["submitted_matches.py", "--games", "2", "--unpacks", "1"], "_bench_bots"),
    "arena placement": (["arena_placement.py", "--warmup", "1", "--repeats", "1", "--checkpoints", "2"], "_bench"),
    # A real Celery worker and beat of their own: their queues and bindings go with them.
    "arena newcomer": (["arena_newcomer.py", "--sizes", "2", "--runs", "1"], "_bench"),
    "arena placement, live": (
        ["arena_placement.py", "--warmup", "1", "--repeats", "1", "--checkpoints", "2", "--live"],
        "_bench",
    ),
}
DEFAULT_QUEUES = ("arena", "arena-periodic")


@pytest.mark.system
@pytest.mark.parametrize("name", sorted(BENCHMARKS))
def test_a_benchmark_sends_nothing_to_the_service_queues_and_drops_its_own(
    name: str, clean_state: dict[str, str]
) -> None:
    command, suffix = BENCHMARKS[name]
    broker = PrivateRedis()
    broker.start()
    client = redis.Redis(port=broker.port)
    try:
        for queue in DEFAULT_QUEUES:
            client.lpush(queue, f"a message of the service's own in {queue}")
        before = {queue: client.llen(queue) for queue in DEFAULT_QUEUES}
        env = dict(clean_state, REDIS_URL=broker.url)
        database = env["DATABASE_URL"].rsplit("/", 1)[1] + suffix
        done = _run(command, env, timeout=240)
        assert done.returncode == 0, f"{name} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"

        assert {queue: client.llen(queue) for queue in DEFAULT_QUEUES} == before
        owned = f"arena:{database_tag(database)}".encode()
        foreign = sorted(key for key in client.scan_iter(count=1000) if key.decode() not in DEFAULT_QUEUES)
        assert [key for key in foreign if not key.startswith(owned)] == []
    finally:
        client.close()
        broker.stop()
