"""Server-Sent Events: the live events the play actions publish (`play.events`) relayed to browsers.

Served only under ASGI (uvicorn workers, `make run`): each stream is an async view that waits on
Redis pub/sub without holding a thread. Under WSGI, or without Redis, a stream answers 204, which
tells the browser's EventSource not to reconnect: the pages then poll.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, connection
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse

from arena.models import Player
from play.events import player_channel, table_channel
from play.models import LiveGame

# A comment line this often keeps proxies from closing an idle stream.
HEARTBEAT_SECONDS = 15.0
# A stream ends after this long and the browser reconnects (at once, `retry` below): no connection
# lives forever, and a server restart is picked up.
STREAM_SECONDS = 300.0
RETRY_MS = 1500


def _can_stream(request: HttpRequest) -> bool:
    return isinstance(request, ASGIRequest) and not settings.REDIS_FALLBACK


async def _events(channel: str) -> AsyncIterator[bytes]:
    client = aioredis.Redis.from_url(settings.REDIS_URL)
    pubsub = client.pubsub()
    try:
        await pubsub.subscribe(channel)
        # Sent once subscribed: the page re-reads the state it may have missed while connecting.
        yield f"retry: {RETRY_MS}\nevent: ready\ndata: {{}}\n\n".encode()
        loop = asyncio.get_running_loop()
        ends = loop.time() + STREAM_SECONDS
        while loop.time() < ends:
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=HEARTBEAT_SECONDS)
            if message is None:
                yield b": still here\n\n"
                continue
            data = message["data"].decode() if isinstance(message["data"], bytes) else str(message["data"])
            yield f"data: {data}\n\n".encode()
    finally:
        await pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py leaves PubSub.aclose unannotated
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


async def _stream(channel: str) -> StreamingHttpResponse:
    await sync_to_async(_give_back_the_connection)()
    response = StreamingHttpResponse(_events(channel), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


async def table_events(request: HttpRequest, match_id: int) -> HttpResponseBase:
    """The moves of one table, for its players and spectators alike (turn numbers only)."""
    if not await LiveGame.objects.filter(pk=match_id).aexists():
        raise Http404("no such table")
    if not _can_stream(request):
        return HttpResponse(status=204)
    return await _stream(table_channel(match_id))


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
    return await _stream(player_channel(player_id))
