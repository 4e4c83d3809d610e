"""In Chromium: two players chat at a rated table, live; a spectator chats on the spectators' channel and
reads nothing of the players' one while the game runs (nor they the spectators'); a player mutes another
and reports a message, which waits in the admin's queue. Messages are escaped, capped, throttled, stored,
and no record of the game holds them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.web.browsing import PASSWORD, people, shot, sign_in

pytestmark = pytest.mark.system


def _rated_table() -> Any:
    from arena.models import Match, Player
    from play.engine import create_live_match

    ann, ben = people("ann", "ben")
    people("carl")
    return create_live_match(
        game="part-du-chef",
        kind=Match.Kind.ARENA,
        players=[ann, ben, Player.objects.get(name="greedy")],
        seed=29,
    )


def _say(page: Any, text: str) -> None:
    page.locator("#chat-text").fill(text)
    page.locator("#chat-form button[type=submit]").click()


def test_two_players_chat_and_a_spectator_does_not_read_them_during_a_rated_game(browser: Any, site: str) -> None:
    from play.models import ChatMessage, ChatReport, LiveGame

    match = _rated_table()
    pages = {name: sign_in(browser, site, name) for name in ("ann", "ben", "carl")}
    for page in pages.values():
        page.goto(f"{site}/play/{match.id}/")
        page.wait_for_selector("html[data-live=on]")
        page.wait_for_selector("#chat-messages .chat-log")
    ann, ben, carl = pages["ann"], pages["ben"], pages["carl"]
    assert ann.locator("#chat-title").inner_text() == "Chat with the players"
    assert carl.locator("#chat-title").inner_text() == "Spectators' chat"

    _say(ann, "Bonne chance <b>ben</b>!")
    heard = ben.locator("#chat-log li", has_text="Bonne chance")
    heard.wait_for(timeout=3000)
    # Escaped: the words as typed, no markup.
    assert heard.locator(".text").inner_text() == "Bonne chance <b>ben</b>!"
    assert ben.locator("#chat-log b").count() == 0
    _say(ben, "Merci ann")
    ann.locator("#chat-log li", has_text="Merci ann").wait_for(timeout=3000)

    _say(carl, "Go greedy")
    carl.locator("#chat-log li", has_text="Go greedy").wait_for(timeout=3000)
    carl.wait_for_function("() => +document.getElementById('chat').dataset.loaded >= 2")
    assert carl.locator("#chat-log li", has_text="Bonne chance").count() == 0
    assert carl.locator("#chat-log li", has_text="Merci ann").count() == 0
    # The players do not read the spectators during a rated game either.
    ann.reload()
    ann.wait_for_selector("#chat-log li", state="attached")
    assert ann.locator("#chat-log li", has_text="Go greedy").count() == 0
    # Nor does an anonymous visitor read the players.
    anonymous = browser.new_context().new_page()
    for reader in (anonymous, carl):
        answer = reader.request.get(f"{site}/play/{match.id}/chat/")
        assert "Bonne chance" not in answer.text() and "Merci ann" not in answer.text()
    anonymous.context.close()
    shot(ben, "65-chat-players")
    shot(carl, "66-chat-spectator")

    # Ben mutes Ann: her words are hidden in his browser, and stay hidden after a reload.
    ben.locator("#chat-log li", has_text="Bonne chance").locator("button.mute").click()
    assert not ben.locator("#chat-log li[data-author] .text").first.is_visible()
    ben.reload()
    ben.wait_for_selector("#chat-log li.muted-author")
    # He reports her message: it waits in the admin's queue.
    message = ChatMessage.objects.get(text="Bonne chance <b>ben</b>!")
    ben.locator(f'#chat-log li[data-message="{message.id}"] button.report').click()
    ben.locator(f'#chat-log li[data-message="{message.id}"]', has_text="Reported").wait_for()
    assert ChatReport.objects.get().message == message
    staff = Client()
    staff.force_login(User.objects.create_user("boss", password=PASSWORD, is_staff=True, is_superuser=True))
    assert "Bonne chance &lt;b&gt;ben&lt;/b&gt;!" in staff.get("/admin/play/chatreport/").content.decode()

    # Stored with the game, never in its record.
    assert ChatMessage.objects.filter(match=match).count() == 3
    assert "Bonne chance" not in json.dumps(LiveGame.objects.get(pk=match.pk).record)
    for page in pages.values():
        page.context.close()


def test_messages_are_capped_and_throttled(site: str) -> None:
    match = _rated_table()
    ann = Client()
    ann.force_login(User.objects.get(username="ann"))
    url = f"/play/{match.id}/chat/say/"
    headers = {"HTTP_X_REQUESTED_WITH": "fetch"}
    too_long = ann.post(url, {"text": "x" * 301}, **headers)
    assert too_long.status_code == 400 and too_long.json()["error"] == "A message has at most 300 characters."
    assert ann.post(url, {"text": "   "}, **headers).json()["error"] == "Write something first."
    answers = [ann.post(url, {"text": f"hello {n}"}, **headers) for n in range(6)]
    assert [a.status_code for a in answers] == [200] * 5 + [400]
    assert answers[-1].json()["error"] == "Not so fast: at most 5 messages in 10 seconds."
    assert Client().post(url, {"text": "hi"}, **headers).status_code == 403
