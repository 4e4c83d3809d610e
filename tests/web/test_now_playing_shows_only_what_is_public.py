"""In Chromium: "Now playing" lists the tables being played; a spectator opens one and sees what every
player sees and nothing more — no slice of a pizza to come and no seed in the page, the panel, the state
API or the table's stream — is told they watch, and can look back at the pizzas already shared out."""

from __future__ import annotations

from typing import Any

import pytest

from tests.leaks import leaks, pizzas_after
from tests.web.browsing import people, shot

pytestmark = pytest.mark.system
SEED = 7919


def _rated_table_at_pizza_2() -> Any:
    from arena.models import Match, Player
    from play.engine import create_live_match, play_turn
    from play.models import LiveGame

    ann, ben = people("ann", "ben")
    match = create_live_match(
        game="part-du-chef",
        kind=Match.Kind.ARENA,
        players=[ann, ben, Player.objects.get(name="greedy")],
        seed=SEED,
    )
    # Pizza 1: a cut and three takes, the people's clocks running out (the house plays for them).
    for _ in range(4):
        game = LiveGame.objects.get(pk=match.pk)
        assert play_turn(match.id, game.turn, now=game.deadline) == "played"
    return match


def test_a_spectator_opens_a_live_table_from_now_playing_and_sees_nothing_hidden(browser: Any, site: str) -> None:
    from play.engine import play_turn
    from play.models import LiveGame

    match = _rated_table_at_pizza_2()
    hidden = pizzas_after(SEED, 1)  # pizzas 3 to 5
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{site}/now-playing/")
    row = page.locator(".now-playing li").filter(has_text=f"Watch table {match.id}")
    assert "Pizza 2 of 5" in row.inner_text() and "ann" in row.inner_text() and "greedy" in row.inner_text()
    shot(page, "62-now-playing")
    row.get_by_role("link").click()
    page.wait_for_url(f"{site}/play/{match.id}/")
    page.wait_for_selector("html[data-live=on]")
    assert page.locator("#watching").inner_text() == "You are watching this table."
    assert page.locator("#sound-on").count() == 0 and page.locator("#play-form").count() == 0
    # The pizzas already shared out can be looked at: pizza 1 only.
    page.locator("#earlier summary").click()
    assert page.locator("#earlier svg.pizza").evaluate_all("rings => rings.map(r => r.dataset.pizza)") == ["0"]
    shot(page, "63-spectator-table-with-earlier-pizza")

    # Listening to the table's stream while the next decisions are taken.
    page.evaluate(
        """url => { window.heard = []; const s = new EventSource(url);
        s.addEventListener("ready", () => { window.listening = true; });
        s.onmessage = e => window.heard.push(e.data); }""",
        f"/events/tables/{match.id}/",
    )
    page.wait_for_function("() => window.listening === true")
    for _ in range(2):
        game = LiveGame.objects.get(pk=match.pk)
        assert play_turn(match.id, game.turn, now=game.deadline) == "played"
    page.wait_for_function("() => window.heard.length >= 2")
    answers = {
        "page": page.content(),
        "panel": page.request.get(f"{site}/play/{match.id}/panel/").text(),
        "state API": page.request.get(f"{site}/api/matches/{match.id}/state/").text(),
        "now playing": page.request.get(f"{site}/now-playing/").text(),
        "stream": "\n".join(page.evaluate("() => window.heard")),
    }
    for name, body in answers.items():
        assert not leaks(body, SEED, hidden), (name, leaks(body, SEED, hidden))
    context.close()
