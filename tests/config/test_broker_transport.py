"""A worker's channel closed after its broker connection was torn down does not crash restoring its messages.

kombu 5.7.0 ends the worker there ("Unrecoverable error: AttributeError("'NoneType' object has no
attribute 'hostname'")"); config/redis_transport.py, which `redis://` brokers use, skips that
restore instead. Both are driven here into the state a Redis restart leaves a worker's channel in:
a message taken but not acknowledged, the channel's pool dropped, the connection's settings gone.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis
from kombu import Connection, Exchange, Queue
from kombu.transport import redis as kombu_redis

from config import redis_transport
from tests.support import PrivateRedis

# A redis-server of its own, started and restarted by the tests.
pytestmark = pytest.mark.system


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis()
    server.start()
    yield server
    server.stop()


def _channel_torn_down_with_a_message_taken(connection: Connection) -> kombu_redis.Channel:
    queue = Queue("torn-down", Exchange("torn-down"), "torn-down")
    channel = connection.channel()
    connection.Producer(channel).publish({"n": 1}, exchange=queue.exchange, routing_key="torn-down", declare=[queue])
    taken = []
    connection.Consumer([queue], channel=channel, callbacks=[lambda body, message: taken.append(message)]).consume()
    connection.drain_events(timeout=5)
    assert len(taken) == 1 and len(channel.qos._delivered) == 1  # taken, not acknowledged
    # What closing the channel and then the connection after a lost broker leaves behind.
    channel._disconnect_pools()
    channel.connection.client = None
    return channel


def test_the_redis_url_selects_the_fixed_transport(private_redis: PrivateRedis) -> None:
    from config.celery import app

    with app.connection_for_write(private_redis.url) as connection:
        assert isinstance(connection.transport, redis_transport.Transport)


def test_kombu_alone_crashes_restoring_after_the_connection_was_torn_down(private_redis: PrivateRedis) -> None:
    connection = Connection(hostname="127.0.0.1", port=private_redis.port, transport=kombu_redis.Transport)
    channel = _channel_torn_down_with_a_message_taken(connection)
    with pytest.raises(AttributeError, match="hostname"):
        channel.qos.restore_unacked()
    channel.qos._on_collect.cancel()  # else kombu tries again, and fails the same way, when the test run exits


def test_the_fixed_transport_skips_that_restore_and_leaves_the_message_in_the_broker(
    private_redis: PrivateRedis, caplog: pytest.LogCaptureFixture
) -> None:
    connection = Connection(private_redis.url)
    assert isinstance(connection.transport, redis_transport.Transport)
    channel = _channel_torn_down_with_a_message_taken(connection)
    channel.qos.restore_unacked_once()  # as closing the channel does
    assert "not restoring 1 unacknowledged message(s)" in caplog.text
    # Still in the broker's unacked index, from which a worker brings it back after the visibility timeout.
    assert redis.Redis(port=private_redis.port).hlen("unacked") == 1
