"""In Chromium: a person reading another page (here the home page) is told when it is their turn at a
table, with a link to it, within 3 s of the move before theirs."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browsing import people, shot, sign_in

pytestmark = pytest.mark.system


def test_your_turn_is_told_on_another_page_with_a_link(browser: Any, site: str) -> None:
    from arena.models import Match, Player
    from play.engine import create_live_match, play_turn

    (ann,) = people("ann")
    match = create_live_match(
        game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[Player.objects.get(name="greedy"), ann], seed=29
    )
    page = sign_in(browser, site, "ann", width=360, height=740)
    page.goto(f"{site}/rules/")
    page.wait_for_function("() => document.querySelector('#notices').dataset.listening === 'on'")
    assert play_turn(match.id, 0) == "played"  # greedy cuts: Ann takes next
    notice = page.locator("#turn-notice a")
    notice.wait_for(timeout=3000)
    assert notice.inner_text() == f"Your turn at table {match.id}"
    shot(page, "67-your-turn-on-another-page-360")
    notice.click()
    page.wait_for_url(f"{site}/play/{match.id}/")
    assert page.locator("#status-line strong").inner_text().startswith("Your turn")
    page.context.close()
