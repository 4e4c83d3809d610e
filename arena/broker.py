"""What the broker says about a queue: how many messages still wait in it."""

from __future__ import annotations

import logging

from celery import current_app
from kombu.exceptions import ChannelError

log = logging.getLogger(__name__)


def waiting_messages(queue: str) -> int:
    """Messages waiting in `queue` (not yet taken by a worker); 0 when the broker cannot say."""
    if current_app.conf.task_always_eager:
        return 0
    try:
        with current_app.connection_for_write() as connection:
            channel = connection.default_channel
            # Every transport's channel has queue_declare; kombu's stubs leave it off the abstract one.
            declared = channel.queue_declare(queue=queue, passive=True)  # type: ignore[attr-defined]  # stubs: above
            return int(declared.message_count)
    except ChannelError:
        # Redis has no key for an empty queue, so a passive declare answers "not found": none wait.
        return 0
    except Exception as exc:  # an unreachable broker: assume nothing waits, so lost messages are re-sent
        log.warning("cannot count the messages waiting in %s: %s", queue, exc)
        return 0
