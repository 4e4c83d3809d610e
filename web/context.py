"""What every page's header says about the visitor: the table they are playing at, if any.

Read from the cache (kept by `web.live` as tables start and end), never from the database, so that
no page pays a query for it."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.http import HttpRequest

# A game lasts minutes; a key that missed its end is forgotten after this long.
PLAYING_SECONDS = 6 * 3600


def playing_key(user_id: int) -> str:
    return f"web-playing:{user_id}"


def playing(request: HttpRequest) -> dict[str, Any]:
    def table() -> int | None:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        found = cache.get(playing_key(user.pk))
        return int(found) if found is not None else None

    # Templates call it only where they show it.
    return {"playing_table": table}
