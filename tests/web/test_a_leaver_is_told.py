"""In Chromium: a person who leaves the game is told they left, the house plays their seat, and at the end
their place says they forfeited, as the standings do."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browsing import people, shot, sign_in

pytestmark = pytest.mark.system


def test_a_leaver_sees_they_left_and_the_standings_say_forfeit(browser: Any, site: str) -> None:
    from arena.models import Match, Player
    from play.engine import create_live_match, play_turn
    from play.models import LiveGame

    (ann,) = people("ann")
    match = create_live_match(
        game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[ann, Player.objects.get(name="greedy")], seed=29
    )
    page = sign_in(browser, site, "ann")
    page.goto(f"{site}/play/{match.id}/")
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Leave the game").click()
    note = page.locator("#left-note")
    note.wait_for()
    assert note.inner_text() == "You have left this game; the house plays your seat to the end."
    shot(page, "53-left-the-game")
    # The house plays both seats to the end (what the workers do).
    while (game := LiveGame.objects.get(pk=match.pk)).to_act is not None:
        assert play_turn(match.id, game.turn) == "played"
    page.wait_for_selector("#panel[data-status=finished]")
    title = page.locator("#over-title").inner_text()
    assert title == "You left the game: you forfeit and are ranked number 2 of 2."
    mine = page.locator(".standings tr.me td.rank").inner_text()
    assert mine.startswith("2") and "forfeit" in mine
    assert page.locator("#left-note").count() == 0
    # The header no longer leads to a game in progress.
    assert page.locator("header a.playing").count() == 0
    shot(page, "54-leaver-game-over")
    page.context.close()
