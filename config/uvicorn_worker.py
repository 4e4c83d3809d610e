"""The gunicorn worker class `make run` serves the ASGI application with
(`-k config.uvicorn_worker.ArenaUvicornWorker`).

uvicorn's own proxy-header handling is off: by default it believes `X-Forwarded-For` from loopback
(gunicorn's `forwarded_allow_ips`) and rewrites the client address with it, so a client on the same
machine, or anyone behind a local proxy that passes the header through, could pick the address the
login and sign-up throttles count. The address is read once, by common.clients, from the connection,
or from `X-Forwarded-For` only behind the `ARENA_NUM_PROXIES` trusted proxies configured (docs/deploy.md).
"""

from __future__ import annotations

from typing import Any

from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]  # uvicorn-worker ships no type hints


class ArenaUvicornWorker(UvicornWorker):  # type: ignore[misc]  # uvicorn-worker ships no type information
    CONFIG_KWARGS: dict[str, Any] = {**UvicornWorker.CONFIG_KWARGS, "proxy_headers": False}
