"""In Chromium at 360 × 740, in English, French and Norwegian: a decision the server could not take says
so (busy: "try again in N s" from Retry-After; any other server error: "in a moment"), distinct from no
connection at all ("check your connection"); a chat message with a link is refused with a reason and
stays in its field; and the very first invitation after a page loads raises a browser notification."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext

from tests.web.browsing import people, shot, sign_in

pytestmark = pytest.mark.system
PHONE = {"width": 360, "height": 740}
LOCALES = {"en": "en-GB", "fr": "fr-FR", "nb": "nb-NO"}


def _said(language: str, english: str) -> str:
    with translation.override(language):
        said = gettext(english)
    assert language == "en" or said != english, f"{english!r} has no {language} translation"
    return said


def _ben_to_take(suffix: str) -> Any:
    """Ann cut pizza 1; Ben is to take a portion."""
    from arena.models import Match
    from play.engine import create_live_match, submit_action

    ann, ben = people(f"ann{suffix}", f"ben{suffix}")
    match = create_live_match(game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[ann, ben], seed=29)
    submit_action(match.id, ann, 0, {"type": "cut", "cuts": [0, 9], "marianne": None})
    return match


def _answering(answers: list[dict[str, Any]]) -> Any:
    """A route that answers the decision's POST as `answers[0]` says (a status, or no answer at all)."""

    def decision(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
        elif answers[0].get("abort"):
            route.abort("internetdisconnected")
        else:
            route.fulfill(**answers[0])

    return decision


def test_a_server_error_is_not_a_lost_connection_and_a_link_in_the_chat_is_refused_with_a_reason(
    browser: Any, site: str
) -> None:
    from play.models import ChatMessage

    for language, locale in LOCALES.items():
        match = _ben_to_take(language)
        page = sign_in(browser, site, f"ben{language}", locale=locale, **PHONE)
        page.goto(f"{site}/play/{match.id}/")
        page.wait_for_selector("html[data-live=on]")
        answers: list[dict[str, Any]] = []
        page.route(f"{site}/play/{match.id}/", _answering(answers))
        page.locator("input[name=portion]").first.check()
        error = page.locator("#play-error")
        busy = {"status": 503, "headers": {"Retry-After": "7"}, "body": "busy"}
        failed = {"status": 500, "body": "<h1>oops</h1>"}
        for answer, expected in (
            (busy, "The server is busy: try again in {s} s."),
            (failed, "The server could not take your decision: try again in a moment."),
            ({"abort": True}, "The table could not be reached: check your connection and try again."),
        ):
            answers[:] = [answer]
            page.locator("#send").click()
            said = _said(language, expected).replace("{s}", "7")
            page.wait_for_function("text => document.getElementById('play-error').textContent === text", arg=said)
            assert error.is_visible()
            assert page.locator("#send").is_enabled()  # the person may try again
        shot(page, f"64-phone-server-busy-then-offline-{language}")
        page.unroute(f"{site}/play/{match.id}/")

        # A link in the chat: refused, said, and the message kept in the field to be reworded.
        page.locator("#chat-text").fill("regarde www.example.com/pizza")
        page.locator("#chat-form button[type=submit]").click()
        refusal = _said(language, "Links cannot be sent in the chat: say it in words.")
        page.wait_for_function("text => document.getElementById('chat-error').textContent === text", arg=refusal)
        assert page.locator("#chat-text").input_value() == "regarde www.example.com/pizza"
        assert not ChatMessage.objects.filter(match_id=match.id).exists()
        shot(page, f"65-phone-chat-link-refused-{language}")
        page.context.close()


NOTIFICATIONS = """
window.notes = [];
window.Notification = function (text) { window.notes.push(text); };
window.Notification.permission = "granted";
window.Notification.requestPermission = function () { return Promise.resolve("granted"); };
// The tab is in the background: notifications are for pages one is not looking at.
Object.defineProperty(document, "hidden", { get: function () { return true; } });
"""


def test_the_first_invitation_after_a_page_loads_raises_a_notification(browser: Any, site: str) -> None:
    from play import tables

    for language, locale in LOCALES.items():
        host, other, guest = people(f"host{language}", f"other{language}", f"guest{language}")
        page = sign_in(browser, site, guest.name, locale=locale, **PHONE)
        page.context.add_init_script(NOTIFICATIONS)
        page.goto(f"{site}/rules/")
        # Listening, and the notices it opened with read: what comes now is news.
        page.wait_for_function("() => document.querySelector('#notices').dataset.listening === 'on'")
        page.wait_for_selector("#notices[data-loaded]", state="attached")
        tables.open_table(host.owner, "part-du-chef", [guest.id])
        page.wait_for_function("() => window.notes.length === 1")
        invited = _said(language, "You are invited to a table")
        assert page.evaluate("window.notes") == [invited]
        tables.open_table(other.owner, "part-du-chef", [guest.id])
        page.wait_for_function("() => window.notes.length === 2")
        page.wait_for_selector("#notices li.invitation >> nth=1")
        shot(page, f"66-phone-invited-twice-{language}")
        page.context.close()
