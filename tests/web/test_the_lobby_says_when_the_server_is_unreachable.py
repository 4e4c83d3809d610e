"""In Chromium: the lobby's own requests (the queue's place, the invitations) say in the page's status line
when the server answers 503 or cannot be reached, and stop saying it once it answers again."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.browsing import shot, sign_up

pytestmark = pytest.mark.system
# How long a step may take to show on a machine whose cores are all busy (the queue is read every 6 s).
BUSY_MS = 30_000


def test_a_busy_or_unreachable_server_is_said_in_the_lobby_and_the_saying_stops_once_it_answers(
    browser: Any, site: str, settings: Any
) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_PEOPLE = 3600  # nobody is seated while the test watches the queue
    page = sign_up(browser, site, "fay")
    page.locator("button[name=join]").click()
    page.wait_for_selector("#queue-place")
    status = page.locator("#live-status")
    expect(status).to_have_text("")

    page.route(
        "**/api/arena/queue/",
        lambda route: route.fulfill(
            status=503,
            headers={"Retry-After": "9"},
            content_type="application/json",
            body='{"detail": "the database is unavailable for a moment", "code": "database_unavailable"}',
        ),
    )
    expect(status).to_have_text("The server is busy: trying again in 9 s…", timeout=BUSY_MS)
    shot(page, "57-lobby-server-busy")
    page.unroute("**/api/arena/queue/")
    expect(status).to_have_text("", timeout=BUSY_MS)

    page.route("**/api/arena/queue/", lambda route: route.abort())
    expect(status).to_have_text("Offline: trying to reconnect…", timeout=BUSY_MS)
    page.unroute("**/api/arena/queue/")
    expect(status).to_have_text("", timeout=BUSY_MS)
    # Still in the queue, and still on the lobby: an error answer was never read as the queue's state.
    expect(page.locator("#queue-place")).to_contain_text("You are number 1 in the queue")
    page.context.close()
