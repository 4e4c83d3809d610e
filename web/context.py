"""What every page's header says about the visitor: the table they are playing at, if any.

Read from the cache (kept by `play.events` as tables start and end), never from the database, so that
no page pays a query for it."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest

from play.events import playing_table


def playing(request: HttpRequest) -> dict[str, Any]:
    def table() -> int | None:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        return playing_table(user.pk)

    # Templates call it only where they show it.
    return {"playing_table": table}


def languages(request: HttpRequest) -> dict[str, Any]:
    """The language menu: each language named in its own words (settings.LANGUAGES), never translated
    into the page's language, so that a reader finds theirs whatever the page speaks."""
    return {"site_languages": settings.LANGUAGES}
