"""Server-Sent Events: the live events the play actions publish (`play.events`) relayed to browsers.

Served only under ASGI (uvicorn workers, `make run`): each stream is an async view that waits on the
channel's Redis stream (`XREAD BLOCK`) without holding a thread. Under WSGI, or without Redis, a stream
answers 204, which tells the page not to reconnect: the pages then poll.

Each event carries the id Redis gave it in its channel (`id:`). A page that lost its connection comes
back with the last id it saw (`Last-Event-ID`) and is first sent what it missed; where the channel no
longer holds all of that (trimmed, or forgotten after `play.events.KEPT_SECONDS`), the `ready` event
says `"resumed": false` and the page reads its state again, as it does on its first connection. A
stream that ends on time says `bye` first, so the page reconnects at once without saying it is offline.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from typing import Any

import redis
import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, connection
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse

from arena.models import Player
from play.events import KEPT_SECONDS, player_channel, table_channel
from play.models import LiveGame

# A comment line this often keeps proxies from closing an idle stream.
HEARTBEAT_SECONDS = 15.0
# A stream ends after this long and the page reconnects at once: no connection lives forever, and a
# server restart is picked up.
STREAM_SECONDS = 300.0

_EVENT_ID = re.compile(r"^(\d{1,19})-(\d{1,19})$")
StreamId = tuple[int, int]


def _can_stream(request: HttpRequest) -> bool:
    return isinstance(request, ASGIRequest) and not settings.REDIS_FALLBACK


def _parse(raw: str | bytes | None) -> StreamId | None:
    if isinstance(raw, bytes):
        raw = raw.decode()
    found = _EVENT_ID.match(raw.strip()) if raw else None
    return (int(found[1]), int(found[2])) if found else None


def _text(stream_id: StreamId) -> str:
    return f"{stream_id[0]}-{stream_id[1]}"


async def _now_ms(client: aioredis.Redis) -> int:
    seconds, micros = await client.time()
    return int(seconds) * 1000 + int(micros) // 1000


async def _resumable(client: aioredis.Redis, channel: str, last: StreamId, now_ms: int) -> bool:
    """Does the channel still hold every event after `last`? None was deleted or trimmed after it, and
    the channel was not forgotten and begun again since (possible only when `last` is older than the
    channel is kept)."""
    recent = last[0] > now_ms - KEPT_SECONDS * 1000
    try:
        info: dict[str, Any] = await client.xinfo_stream(channel)
    except redis.ResponseError:  # no such key: no event since, unless it was forgotten
        return recent
    if (_parse(info.get("max-deleted-entry-id")) or (0, 0)) > last:
        return False
    first = info.get("first-entry")
    # Trimming takes the oldest: with the first kept at or before `last`, nothing after it went.
    holds_last = first is not None and (_parse(first[0]) or (0, 0)) <= last
    trimmed = int(info.get("entries-added", 0)) > int(info.get("length", 0))
    return holds_last or (recent and not trimmed)


async def _start(client: aioredis.Redis, channel: str, last_event_id: str | None) -> tuple[StreamId, bool]:
    """Where the stream reads from, and whether the page resumes from its last event."""
    now_ms = await _now_ms(client)
    last = _parse(last_event_id)
    if last is not None and await _resumable(client, channel, last, now_ms):
        return last, True
    # From now: every event added later has a greater id (Redis's clock, never going back).
    top: Any = await client.xrevrange(channel, count=1)  # redis-py types replies loosely
    newest = _parse(top[0][0]) if top else None
    return newest or (now_ms - 1, 0), False


async def _read(client: aioredis.Redis, channel: str, after: str, block_ms: int) -> list[tuple[bytes, bytes]]:
    """The channel's events after `after` (id and JSON), waiting up to `block_ms` for the first."""
    found: Any = await client.xread({channel: after}, count=100, block=block_ms)  # typed loosely by redis-py
    return [(entry_id, fields[b"data"]) for _key, entries in found or [] for entry_id, fields in entries]


async def _events(client: aioredis.Redis, channel: str, start: StreamId, resumed: bool) -> AsyncIterator[bytes]:
    try:
        # Sent first: a page that did not resume re-reads the state it may have missed.
        said_id = "" if resumed else f"id: {_text(start)}\n"
        yield f'{said_id}event: ready\ndata: {{"resumed": {"true" if resumed else "false"}}}\n\n'.encode()
        loop = asyncio.get_running_loop()
        ends = loop.time() + STREAM_SECONDS
        last = _text(start)
        while (left := ends - loop.time()) > 0:
            block_ms = max(1, int(1000 * min(HEARTBEAT_SECONDS, left)))
            entries = await _read(client, channel, last, block_ms)
            if not entries:
                yield b": still here\n\n"
            for entry_id, data in entries:
                last = entry_id.decode()
                yield b"id: " + entry_id + b"\ndata: " + data + b"\n\n"
        yield b"event: bye\ndata: {}\n\n"
    except redis.RedisError:
        return  # ends without `bye`: the page waits, then comes back with its last id
    finally:
        await client.aclose()


def _give_back_the_connection() -> None:
    """A stream lasts minutes without the database: the connection its checks used goes back to the pool
    now, not when the stream ends (docs/deploy.md, "Database connections"). Under gunicorn's uvicorn
    workers the checks ran on this same thread (the request's); a connection another thread made (an
    in-process server's) is left to that thread, which closes it when the request ends."""
    try:
        connection.close()
    except DatabaseError:
        pass


async def _stream(request: HttpRequest, channel: str) -> HttpResponseBase:
    await sync_to_async(_give_back_the_connection)()
    client = aioredis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2.0)
    try:
        start, resumed = await _start(client, channel, request.headers.get("Last-Event-ID"))
    except redis.RedisError:
        await client.aclose()
        outage = HttpResponse(status=503)
        outage["Retry-After"] = str(settings.ARENA_OUTAGE_RETRY_AFTER)  # as every outage answer
        return outage
    response = StreamingHttpResponse(_events(client, channel, start, resumed), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


async def table_events(request: HttpRequest, match_id: int) -> HttpResponseBase:
    """The moves of one table, for its players and spectators alike (turn numbers only)."""
    if not await LiveGame.objects.filter(pk=match_id).aexists():
        raise Http404("no such table")
    if not _can_stream(request):
        return HttpResponse(status=204)
    return await _stream(request, table_channel(match_id))


async def my_events(request: HttpRequest) -> HttpResponseBase:
    """A signed-in person's lobby: their table formed, an invitation came, a guest accepted."""
    user = await request.auser()
    if not user.is_authenticated:
        return HttpResponse(status=204)
    player_id = await (
        Player.objects.filter(owner=user, kind=Player.Kind.HUMAN).order_by("id").values_list("id", flat=True).afirst()
    )
    if player_id is None or not _can_stream(request):
        return HttpResponse(status=204)
    return await _stream(request, player_channel(player_id))
