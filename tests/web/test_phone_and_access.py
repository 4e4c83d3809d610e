"""In Chromium at phone size, against the site served under ASGI: no page is wider than a 360 px screen,
the table's status and its button stay in view, touch targets are large enough; screen readers get every
slice and gap by name; and a whole game can be played with the keyboard alone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from arena.models import Match, Player
from arena.people import person_of
from play.engine import create_live_match, load_state, play_turn
from play.models import LiveGame
from tests.web.browsing import shot, sign_up
from web.sentences import slice_name

pytestmark = pytest.mark.system
PHONE = {"width": 360, "height": 740}
# How long a step may take to show on a machine whose cores are all busy.
BUSY_MS = 30_000


def _table_for(name: str, turn_seconds: int | None = None) -> Any:
    """A friendly table of `name` (seat 1, to cut first) and greedy, seed 29."""

    person = person_of(User.objects.get(username=name))
    return create_live_match(
        game="part-du-chef",
        kind=Match.Kind.FRIENDLY,
        players=[person, Player.objects.get(name="greedy")],
        seed=29,
        options={"marianne": True},
        turn_seconds=turn_seconds,
    )


def _aria_tree_naming(page: Any, names: list[str]) -> str:
    """The pizza's accessibility tree once it names every slice: the script swaps in the
    server-drawn panel when the game moves on, and a snapshot taken during the swap is empty."""
    tree = ""
    for _ in range(100):
        tree = page.locator("svg.pizza").aria_snapshot()
        if all(name in tree for name in names):
            break
        page.wait_for_timeout(100)
    return tree


def _width(page: Any) -> int:
    # A page may move on by itself (the lobby takes a player whose table has started to it): measure
    # the page it settles on.
    for _ in range(5):
        try:
            page.wait_for_load_state("load")
            return int(page.evaluate("document.documentElement.scrollWidth"))
        except PlaywrightError as exc:
            if "context was destroyed" not in str(exc):
                raise
    raise AssertionError(f"{page.url} kept navigating")


def test_no_page_is_wider_than_a_360_px_phone_and_the_table_keeps_its_controls_in_view(
    browser: Any, site: str, finished_match: Any
) -> None:
    page = sign_up(browser, site, "hana", width=PHONE["width"], height=PHONE["height"])
    ann = finished_match.seats.get(seat=0).player
    # An hour's clock: touring nine pages on a starved machine must not run out hana's turn, or the clock
    # checked below would be gone with it.
    table = _table_for("hana", turn_seconds=3600)
    pages = {
        "home": "/",
        "leaderboard": "/leaderboard/part-du-chef/",
        "profile": f"/players/{ann.id}/",
        "replay": f"/matches/{finished_match.id}/",
        "rules-en": "/rules/",
        "lobby": "/play/",
        "table": f"/play/{table.id}/",
    }
    wide = {}
    for name, path in pages.items():
        try:
            page.goto(site + path)
        except PlaywrightError as exc:
            # The page open since the sign-up may be sent to hana's new table as it opens: let that
            # navigation land, then go where the tour goes.
            if "interrupted by another navigation" not in str(exc):
                raise
            page.wait_for_load_state()
            page.goto(site + path)
        if _width(page) > PHONE["width"]:
            wide[name] = _width(page)
        shot(page, f"40-phone-{name}")
    for locale, name in (("fr-FR", "rules-fr"), ("nb-NO", "rules-nb")):
        context = browser.new_context(locale=locale, viewport=PHONE)
        other = context.new_page()
        other.goto(f"{site}/rules/")
        if _width(other) > PHONE["width"]:
            wide[name] = _width(other)
        shot(other, f"40-phone-{name}")
        context.close()
    assert wide == {}

    # At the table: scrolled down to the last gap, the status line (with the clock) and the Cut
    # button are still on screen.
    page.goto(f"{site}/play/{table.id}/")
    page.locator('input[name=gap][value="12"]').scroll_into_view_if_needed()
    page.mouse.wheel(0, 400)
    for selector in ("#status-line", ".clock", "#send"):
        # Waited on, not measured once: a redraw of the panel may be under way at that moment.
        expect(page.locator(selector)).to_be_in_viewport(ratio=1, timeout=BUSY_MS)
    for selector in ("#send", "label.gap", "#sound-on >> xpath=.."):
        box = page.locator(selector).first.bounding_box()
        assert box is not None and box["height"] >= 44, selector
    shot(page, "41-phone-table-scrolled")
    page.context.close()


def test_screen_readers_get_every_slice_and_gap_by_name_and_a_game_is_played_by_keyboard(
    browser: Any, site: str
) -> None:
    page = sign_up(browser, site, "ines")
    table = _table_for("ines")
    page.goto(f"{site}/play/{table.id}/")
    game = LiveGame.objects.get(pk=table.pk)

    ring = load_state(game).ring
    names = [
        (page.locator(f'svg.pizza g[data-slice="{sid}"]').get_attribute("aria-label") or "").split(" — ")[0]
        for sid in ring
    ]
    assert all(names)
    tree = _aria_tree_naming(page, names)
    for name in names:
        assert name in tree
    # Gaps are numbered from 1, as on the pizza: gap 5 lies between ring positions 3 and 4.
    with translation.override("en"):  # the page's language, whatever an earlier test left active here
        between = f"between {slice_name(ring[3])} and {slice_name(ring[4])}"
    assert page.get_by_role("checkbox", name=re.compile(rf"^gap 5 — {re.escape(between)}")).count() == 1
    # Every gap's dot on the pizza is a named button too, numbered as on screen.
    for gap in range(13):
        assert f'button "Cut at gap {gap + 1}, between ' in tree, gap
        assert page.locator(f'svg .gap-button[data-gap="{gap}"] .gap-number').text_content() == str(gap + 1)
    # The live region says what happened, not the seconds of the clock.
    # Waited on: the clock ticks, then the panel is drawn again with its new seconds (each redraw is
    # counted in the panel's data-refreshes), which is when the page decides what to announce.
    announce = page.locator("#announce")
    shown = page.locator(".clock").inner_text()
    page.wait_for_function("s => document.querySelector('.clock').textContent !== s", arg=shown, timeout=BUSY_MS)
    drawn = int(page.locator("#panel").get_attribute("data-refreshes") or 0)
    page.wait_for_function(
        "n => +(document.getElementById('panel').dataset.refreshes || 0) > n", arg=drawn, timeout=BUSY_MS
    )
    assert announce.inner_text() == ""

    # The whole game by keyboard: focus moves with Tab and Shift+Tab, Space ticks, Enter sends.
    while (game := LiveGame.objects.get(pk=table.pk)).to_act is not None:
        if game.to_act == 1:
            assert play_turn(table.id, game.turn) == "played"
            continue
        page.wait_for_function("t => document.getElementById('panel').dataset.turn === t", arg=str(game.turn))
        if page.locator("#play-form input[name=phase][value=cut]").count():
            # Each step waits for the page to show it: on a busy machine a key's handler may run late.
            first_gap = page.locator('input[name=gap][value="0"]')
            sixth_gap = page.locator('input[name=gap][value="6"]')
            first_gap.focus()
            page.keyboard.press("Space")
            expect(first_gap).to_be_checked(timeout=BUSY_MS)
            for _ in range(6):
                page.keyboard.press("Tab")
            expect(sixth_gap).to_be_focused(timeout=BUSY_MS)
            page.keyboard.press("Space")
            # A redraw of the panel (the clock's) landing between the focus and the key takes the focus
            # with the old form: the person would press again, and so does the test, on the same gap.
            for _ in range(3):
                if _checked_within(sixth_gap, 5000):
                    break
                sixth_gap.focus()
                page.keyboard.press("Space")
            expect(sixth_gap).to_be_checked(timeout=BUSY_MS)
            expect(page.locator("#gap-count")).to_have_text("2 of 2 gaps chosen", timeout=BUSY_MS)
        else:
            page.locator("#play-form input[name=portion]").first.focus()
            page.keyboard.press("Space")
        page.locator("#send").focus()
        page.keyboard.press("Enter")
        page.wait_for_function("t => document.getElementById('panel').dataset.turn !== t", arg=str(game.turn))
        if game.turn == 2:
            page.wait_for_function("() => document.getElementById('announce').textContent.length > 0")
            assert "greedy" in announce.inner_text() or "ines" in announce.inner_text()
    page.wait_for_selector("#panel[data-status=finished]", timeout=BUSY_MS)
    assert page.locator(".game-log li").count() == 20

    # The replay's controls are buttons: Space on Back steps back.
    page.goto(f"{site}/matches/{table.id}/")
    back = page.get_by_role("button", name=re.compile("Back"))
    back.focus()
    page.keyboard.press("Space")
    assert page.locator('[data-role="step"]').inner_text() == "14"
    page.context.close()


def _checked_within(box: Any, timeout_ms: int) -> bool:
    try:
        expect(box).to_be_checked(timeout=timeout_ms)
    except AssertionError:
        return False
    return True
