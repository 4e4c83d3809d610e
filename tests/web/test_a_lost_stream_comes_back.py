"""A page's live stream survives the server going away: the stream gives each event its id, a page coming
back with the last id it saw (Last-Event-ID) is sent what it missed, or told to read its state again when
the channel no longer holds it; in Chromium the page says it is offline, comes back by itself and shows
the turn that came while it was away, without a reload."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.request import Request, urlopen

import pytest
import redis
from django.conf import settings
from django.db import connections

from arena.builtin import ensure_builtin_bots
from arena.models import Match, Player
from play.engine import create_live_match, play_turn
from play.events import table_channel
from tests.web.asgi import asgi_site, free_port
from tests.web.browsing import people, shot, sign_in

pytestmark = pytest.mark.system


@pytest.fixture
def served(transactional_db: None, monkeypatch: Any) -> Iterator[None]:
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
    ensure_builtin_bots(Player)
    try:
        yield
    finally:
        connections.close_all()


def _table_with_ann() -> Match:
    (ann,) = people("ann")
    return create_live_match(
        game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[Player.objects.get(name="greedy"), ann], seed=29
    )


def _open(url: str, last_event_id: str | None = None) -> Any:
    headers = {"Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    return urlopen(Request(url, headers=headers), timeout=10)


def _event(stream: Any) -> dict[str, str]:
    """The next event's fields (comments skipped)."""
    fields: dict[str, str] = {}
    while True:
        line = stream.readline().decode().rstrip("\n")
        if line == "" and fields:
            return fields
        if line and not line.startswith(":"):
            name, _, value = line.partition(": ")
            fields[name] = value


def _order(event_id: str) -> tuple[int, int]:
    milliseconds, sequence = event_id.split("-")
    return int(milliseconds), int(sequence)


def test_a_page_coming_back_is_sent_what_it_missed_in_order_with_ids(served: None) -> None:
    match = _table_with_ann()
    with asgi_site() as base:
        url = f"{base}/events/tables/{match.id}/"
        with _open(url) as first:
            ready = _event(first)
        assert ready["event"] == "ready" and json.loads(ready["data"]) == {"resumed": False}
        seen = ready["id"]
        # Away: greedy cuts, and Ann's clock runs out on her choice.
        assert play_turn(match.id, 0) == "played"
        with _open(url, seen) as back:
            assert _event(back) == {"event": "ready", "data": '{"resumed": true}'}
            missed = _event(back)
        turn = {"type": "turn", "match": match.id, "turn": 1, "over": False, "why": "seat"}
        assert json.loads(missed["data"]) == turn
        assert _order(missed["id"]) > _order(seen) and "event" not in missed
        # Coming back with the newest id: nothing is sent twice, the next move comes next.
        with _open(url, missed["id"]) as again:
            assert json.loads(_event(again)["data"]) == {"resumed": True}
            assert play_turn(match.id, 1, now=_deadline(match.id)) == "played"
            following = _event(again)
        assert json.loads(following["data"])["turn"] == 2 and _order(following["id"]) > _order(missed["id"])


def _deadline(match_id: int) -> Any:
    from play.models import LiveGame

    return LiveGame.objects.get(pk=match_id).deadline


def test_a_page_whose_missed_events_are_no_longer_kept_is_told_to_read_its_state_again(served: None) -> None:
    match = _table_with_ann()
    with asgi_site() as base:
        url = f"{base}/events/tables/{match.id}/"
        with _open(url) as first:
            seen = _event(first)["id"]
        assert play_turn(match.id, 0) == "played"
        assert play_turn(match.id, 1, now=_deadline(match.id)) == "played"
        # The channel keeps only its newest events: the first one missed is gone.
        redis.Redis.from_url(settings.REDIS_URL).xtrim(table_channel(match.id), maxlen=1, approximate=False)
        with _open(url, seen) as back:
            ready = _event(back)
        assert ready["event"] == "ready" and json.loads(ready["data"]) == {"resumed": False}
        assert _order(ready["id"]) > _order(seen)  # read from now on
        # An id that is not one of ours is a fresh start, not an error.
        with _open(url, "yesterday") as odd:
            assert json.loads(_event(odd)["data"]) == {"resumed": False}


def test_the_page_says_it_is_offline_comes_back_by_itself_and_shows_the_turn_it_missed(
    served: None, browser: Any
) -> None:
    match = _table_with_ann()
    port = free_port()
    with asgi_site(port) as base:
        page = sign_in(browser, base, "ann", width=360, height=740)
        page.goto(f"{base}/rules/")
        page.wait_for_function("() => document.querySelector('#notices').dataset.listening === 'on'")
        status = page.locator("#live-status")
        assert status.get_attribute("role") == "status" and status.inner_text() == ""
    # The server is gone (its streams cut): the page says so.
    page.wait_for_function("() => document.getElementById('live-status').textContent !== ''", timeout=10000)
    assert status.inner_text() == "Offline: trying to reconnect…"
    assert status.is_visible()
    shot(page, "90-offline-while-the-server-is-away-360")
    # Greedy cuts meanwhile: Ann's turn is told on her stream while no page is connected.
    assert play_turn(match.id, 0) == "played"
    with asgi_site(port):
        notice = page.locator("#turn-notice a")
        notice.wait_for(timeout=40000)  # the page's next try, at most 30 s after the last
        assert notice.inner_text() == f"Your turn at table {match.id}"
        page.wait_for_function("() => document.getElementById('live-status').textContent === ''")
        assert not status.is_visible()
        shot(page, "91-back-online-with-the-turn-it-missed-360")
        page.context.close()


def test_a_stream_without_redis_answers_503_with_retry_after(served: None, settings: Any) -> None:
    from urllib.error import HTTPError

    match = _table_with_ann()
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    with asgi_site() as base, pytest.raises(HTTPError) as refused:
        _open(f"{base}/events/tables/{match.id}/")
    assert refused.value.code == 503
    assert refused.value.headers["Retry-After"] == "5"
