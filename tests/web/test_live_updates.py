"""Pushed updates: every saved move is published on its table's channel once committed, the lobby hears
of tables and invitations, and in a browser the host of a friendly table is taken to it when the guest
accepts, without reloading."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
import redis
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connections
from django.test import Client

from arena.models import Match
from arena.people import person_of
from play import tables
from play.engine import create_live_match, submit_action
from play.events import player_channel, table_channel
from tests.web.asgi import asgi_site
from tests.web.browsing import shot, sign_up


class _Channel:
    """Reads a channel's stream from its newest event on, as a page connecting now would."""

    def __init__(self, channel: str) -> None:
        self.client = redis.Redis.from_url(settings.REDIS_URL)
        self.channel = channel
        newest = self.client.xrevrange(channel, count=1)
        self.last = newest[0][0] if newest else b"0-0"

    def close(self) -> None:
        self.client.close()


def _listen(channel: str) -> _Channel:
    return _Channel(channel)


def _next(listener: _Channel) -> dict[str, Any] | None:
    found = listener.client.xread({listener.channel: listener.last}, count=1, block=3000)
    if not found:
        return None
    listener.last, fields = found[0][1][0]
    return json.loads(fields[b"data"])  # type: ignore[no-any-return]


@pytest.mark.django_db
def test_a_move_is_published_on_the_tables_channel_only_once_committed(
    django_capture_on_commit_callbacks: Any,
) -> None:
    ann, ben = (person_of(User.objects.create_user(n, password="a-long-passphrase")) for n in ("ann", "ben"))
    lobby = _listen(player_channel(ben.id))
    with django_capture_on_commit_callbacks(execute=True):
        match = create_live_match(game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[ann, ben], seed=29)
    assert _next(lobby) == {"type": "table", "match": match.id}
    table = _listen(table_channel(match.id))
    with django_capture_on_commit_callbacks(execute=False) as pending:
        submit_action(match.id, ann, 0, {"type": "cut", "cuts": [4, 9]})
    assert _next(table) is None  # not before the commit
    for callback in pending:
        callback()
    assert _next(table) == {"type": "turn", "match": match.id, "turn": 1, "over": False, "why": "seat"}
    lobby.close()
    table.close()


@pytest.mark.django_db
def test_an_invitation_is_announced_to_the_guest(django_capture_on_commit_callbacks: Any) -> None:
    host = User.objects.create_user("host", password="a-long-passphrase")
    guest = person_of(User.objects.create_user("guest", password="a-long-passphrase"))
    inbox = _listen(player_channel(guest.id))
    with django_capture_on_commit_callbacks(execute=True):
        table = tables.open_table(host, "part-du-chef", [guest.id])
    assert _next(inbox) == {"type": "lobby", "table": table.id, "why": "invited"}
    inbox.close()


@pytest.mark.django_db
def test_a_stream_under_wsgi_answers_no_content_so_the_page_polls(client: Client) -> None:
    ann, ben = (person_of(User.objects.create_user(n, password="a-long-passphrase")) for n in ("ann", "ben"))
    match = create_live_match(game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[ann, ben], seed=29)
    assert client.get(f"/events/tables/{match.id}/").status_code == 204
    assert client.get("/events/tables/999999/").status_code == 404
    assert client.get("/events/me/").status_code == 204


@pytest.mark.django_db(transaction=True)
def test_the_friendly_host_reaches_the_table_within_three_seconds_of_the_guest_accepting(
    browser: Any, monkeypatch: Any
) -> None:
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
    try:
        with asgi_site() as base:
            host = sign_up(browser, base, "dora")
            guest = sign_up(browser, base, "emil")
            host.locator("#guests").fill("emil")
            host.locator("button[name=open]").click()
            host.wait_for_selector("#invitations li")
            # The guest's lobby, open since before the invitation, shows it without a reload.
            guest.wait_for_selector("#invitations button[name=accept]", timeout=3000)
            shot(guest, "20-lobby-invitation-arrives")
            # The host's lobby is on its stream (polling would be slower); the table waits.
            host.wait_for_selector("html[data-live=on]", timeout=3000)
            assert host.url == f"{base}/play/"
            guest.locator("#invitations button[name=accept]").click()
            accepted = time.monotonic()
            host.wait_for_url(re.compile(r".*/play/\d+/$"), timeout=3000)
            assert time.monotonic() - accepted < 3
            match = Match.objects.get(kind=Match.Kind.FRIENDLY)
            assert host.url == f"{base}/play/{match.id}/"
            guest.wait_for_url(f"{base}/play/{match.id}/", timeout=3000)
            shot(host, "21-host-taken-to-the-table")
            for page in (host, guest):
                page.context.close()
    finally:
        connections.close_all()
