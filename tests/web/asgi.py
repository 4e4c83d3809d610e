"""The site served under ASGI by uvicorn in a thread of the test process, on the test database: what
`make run` serves, streams included (the WSGI live server of pytest-django cannot hold a stream)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import uvicorn

from config.asgi import application


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def asgi_site(port: int | None = None) -> Iterator[str]:
    """The site until the block ends; `port` to serve again where a stopped site was."""
    port = port or free_port()
    config = uvicorn.Config(
        application, host="127.0.0.1", port=port, log_level="warning", lifespan="off", timeout_graceful_shutdown=1
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="asgi-site", daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    else:
        raise RuntimeError("the ASGI test server did not start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def site_with_house_bots(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The site on a test database that has the house bots, for tests with the `transactional_db`
    fixture. Every request closes its connection (the site's threads are not the test's), and every
    connection is closed when the block ends, so the test database can be flushed."""
    from django.db import connections

    from arena.builtin import ensure_builtin_bots
    from arena.models import Player

    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
    ensure_builtin_bots(Player)
    try:
        with asgi_site() as base:
            yield base
    finally:
        connections.close_all()
