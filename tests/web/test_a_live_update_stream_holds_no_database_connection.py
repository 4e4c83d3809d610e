"""A live-update stream (Server-Sent Events, minutes long) gives its database connection back to the pool before
it streams: with streams open on every process of the server `make run` starts, each holding a pool of one
connection, the other requests are still answered at once (they would wait for the pool, then answer 503)."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from urllib.parse import urlsplit

import pytest

from arena.matches import create_match
from arena.models import Player
from play.models import LiveGame
from tests.served import call, make_run_server, other_sessions, wait_for_the_servers_sessions_to_end
from tests.support import Workers

pytestmark = pytest.mark.system

STREAMS = 4


@contextmanager
def _stream(base: str, path: str) -> Iterator[None]:
    """An open event stream, once the server said it is subscribed (its `ready` event)."""
    parts = urlsplit(base)
    client = http.client.HTTPConnection(str(parts.hostname), parts.port, timeout=60)
    try:
        client.request("GET", path, headers={"Accept": "text/event-stream"})
        answer = client.getresponse()
        assert answer.status == 200, answer.read()
        while b"event: ready" not in answer.readline():
            pass
        yield
    finally:
        client.close()


def test_open_streams_leave_the_pools_to_the_other_requests(_real_services: str, transactional_db: None) -> None:
    bots = list(Player.objects.filter(kind=Player.Kind.BOT).order_by("id").values_list("id", flat=True)[:2])
    match = create_match(game="part-du-chef", kind="friendly", player_ids=bots, seed=1)
    LiveGame.objects.create(match=match, record={})
    environment = Workers(_real_services).environment(
        LOG_LEVEL="ERROR", ARENA_DB_POOL_MAX_SIZE="1", ARENA_DB_POOL_MIN_SIZE="0", ARENA_DB_POOL_TIMEOUT="3"
    )
    try:
        with make_run_server(environment) as base, ExitStack() as streams:
            for _ in range(STREAMS):
                streams.enter_context(_stream(base, f"/events/tables/{match.id}/"))
            answers = [call(base, "/api/games/").status for _ in range(4)]
            answers += [call(base, f"/api/matches/{match.id}/").status for _ in range(4)]
            assert answers == [200] * 8
            assert other_sessions() <= 2  # one pool of one per process, whatever the streams
    finally:
        wait_for_the_servers_sessions_to_end()
