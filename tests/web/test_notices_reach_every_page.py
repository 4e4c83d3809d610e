"""In Chromium, two people: a rematch offered on the game-over page reaches the other player on their
game-over page within 3 s; the host's table says whom it waits for; a decline is told to the host; an
accepted rematch takes both to the new table."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.browsing import people, shot, sign_in

pytestmark = pytest.mark.system


def _finished_friendly_game() -> Any:
    from arena.models import Match
    from play.engine import create_live_match, play_turn, resign
    from play.models import LiveGame

    ann, ben = people("ann", "ben")
    match = create_live_match(game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[ann, ben], seed=29)
    resign(match.id, ben)
    while (game := LiveGame.objects.get(pk=match.pk)).to_act is not None:
        assert play_turn(match.id, game.turn, now=game.deadline) == "played"
    return match


def test_a_rematch_offer_reaches_the_other_player_on_the_game_over_page(browser: Any, site: str) -> None:
    from play.models import FriendlyTable

    match = _finished_friendly_game()
    ann = sign_in(browser, site, "ann")
    ben = sign_in(browser, site, "ben", width=360, height=740)
    for page in (ann, ben):
        page.goto(f"{site}/play/{match.id}/")
        page.wait_for_selector(".game-over")
    ben.wait_for_selector("html[data-live=on]")

    ann.get_by_role("button", name="Play again with the same players").click()
    ann.wait_for_url(f"{site}/play/")
    waiting = ann.locator("#invitations li.invitation")
    assert waiting.inner_text().startswith("Your table waits for ben")
    # Within 3 s, on Ben's game-over page (a phone), at the top.
    offer = ben.locator("#notices li.invitation")
    offer.wait_for(timeout=3000)
    assert offer.inner_text().startswith("Invitation from ann")
    box = offer.bounding_box()
    assert box is not None and box["y"] < 200
    shot(ben, "57-rematch-offer-on-game-over-360")
    shot(ann, "58-host-table-waits-1280")

    ben.locator("#notices button[name=decline]").click()
    told = ann.locator("#invitations li.declined")
    told.wait_for(timeout=3000)
    assert told.inner_text() == "ben declined the table."
    assert FriendlyTable.objects.get().declined_by.name == "ben"
    shot(ann, "59-host-told-of-decline")

    # A second offer, accepted: both are taken to the new table.
    ann.goto(f"{site}/play/{match.id}/")
    ann.get_by_role("button", name="Play again with the same players").click()
    ann.wait_for_url(f"{site}/play/")
    ben.goto(f"{site}/play/{match.id}/")
    ben.locator("#notices button[name=accept]").click()
    table = re.compile(r".*/play/(\d+)/$")
    ben.wait_for_url(table)
    ann.wait_for_url(table, timeout=5000)
    assert ann.url == ben.url and ann.url != f"{site}/play/{match.id}/"
    for page in (ann, ben):
        page.context.close()
