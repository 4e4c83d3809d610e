"""In Chromium: when two moves land between two readings of the table (the connection dropped a moment),
the screen reader's live region tells both, oldest first, not only the last."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browsing import people, sign_in

pytestmark = pytest.mark.system


def test_two_moves_landing_together_are_announced_both(browser: Any, site: str) -> None:
    from arena.models import Match, Player
    from play.engine import create_live_match, play_turn, submit_action
    from play.events import TurnTaken, publish

    (ann,) = people("ann")
    match = create_live_match(
        game="part-du-chef",
        kind=Match.Kind.FRIENDLY,
        players=[ann, Player.objects.get(name="greedy"), Player.objects.get(name="random")],
        seed=29,
    )
    page = sign_in(browser, site, "ann")
    page.goto(f"{site}/play/{match.id}/")
    page.wait_for_selector("html[data-live=on]")
    submit_action(match.id, ann, 0, {"type": "cut", "cuts": [0, 4, 8], "marianne": None})
    page.wait_for_function("() => document.getElementById('panel').dataset.turn === '1'")
    # The table cannot read its panel while greedy and random move (a reading sent before the route
    # is let finish first: answered after greedy's move, it would bring turn 2 in)...
    page.route("**/panel/", lambda route: route.abort())
    page.wait_for_function("() => !document.getElementById('panel').dataset.reading")
    assert play_turn(match.id, 1) == "played"
    assert play_turn(match.id, 2) == "played"
    assert page.evaluate("() => document.getElementById('panel').dataset.turn") == "1"
    # ...then it can again, and the stream says the table moved.
    page.unroute("**/panel/")
    publish(TurnTaken(match.id, 3, False, "seat"))  # the same turn announced again
    page.wait_for_function("() => document.getElementById('panel').dataset.turn === '3'")
    told = page.locator("#announce").text_content() or ""
    assert "greedy took portion" in told and "random took portion" in told
    assert told.index("greedy took portion") < told.index("random took portion")
    page.context.close()
