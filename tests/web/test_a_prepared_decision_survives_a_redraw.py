"""In Chromium: the decision a person is preparing is never wiped by the table redrawing around it.

The table redraws when anything changes (another seat leaves, a move lands, the stream says so twice):
the gaps ticked stay ticked, the cut lines stay on the pizza, and the decision is accepted. With the
confirm step on, a first press prepares the decision and a second sends it, across a redraw too."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browsing import people, shot, sign_in

pytestmark = pytest.mark.system


def _table() -> Any:
    """Ann (seat 1, the chef), greedy and Ben at a friendly table, seed 29: Ann must cut into 3 portions."""
    from arena.models import Match, Player
    from play.engine import create_live_match

    ann, ben = people("ann", "ben")
    match = create_live_match(
        game="part-du-chef",
        kind=Match.Kind.FRIENDLY,
        players=[ann, Player.objects.get(name="greedy"), ben],
        seed=29,
    )
    return match, ben


def _refreshes(page: Any) -> int:
    """How many times the table has read its panel (the page counts them as it goes)."""
    return int(page.evaluate("() => +(document.getElementById('panel').dataset.refreshes || 0)"))


def test_gaps_ticked_while_the_table_redraws_stay_ticked_and_the_cut_is_accepted(browser: Any, site: str) -> None:
    from play.engine import resign
    from play.events import TurnTaken, publish
    from play.models import LiveGame

    match, ben = _table()
    page = sign_in(browser, site, "ann")
    page.goto(f"{site}/play/{match.id}/")
    page.wait_for_selector("html[data-live=on]")
    page.locator('svg .gap-button[data-gap="0"]').click()
    page.locator('input[name=gap][value="4"]').check()
    page.locator('input[name=gap][value="8"]').check()
    # Ben leaves while Ann prepares her cut: the players' table redraws to say so...
    resign(match.id, ben)
    page.wait_for_selector("text=forfeited")
    # ...and the stream announces the same turn again, twice in a row.
    before = _refreshes(page)
    for _ in range(2):
        publish(TurnTaken(match.id, 0, False, "seat"))  # the same turn announced again
    page.wait_for_function("n => +document.getElementById('panel').dataset.refreshes >= n", arg=before + 1)
    checked = page.eval_on_selector_all("input[name=gap]:checked", "boxes => boxes.map(b => b.value)")
    assert checked == ["0", "4", "8"]
    assert page.locator("line.cut.pending").count() == 3
    assert page.locator("#gap-count").inner_text() == "3 of 3 gaps chosen"
    shot(page, "50-prepared-cut-after-redraw")
    page.locator("#send").click()
    page.wait_for_function("() => document.getElementById('panel').dataset.turn !== '0'")
    assert LiveGame.objects.get(pk=match.pk).record["actions"][0]["cuts"] == [0, 4, 8]
    page.context.close()


def test_with_the_confirm_step_a_first_press_prepares_and_a_second_sends(browser: Any, site: str) -> None:
    from play.engine import resign
    from play.models import LiveGame

    match, ben = _table()
    page = sign_in(browser, site, "ann")
    page.goto(f"{site}/play/{match.id}/")
    page.wait_for_selector("html[data-live=on]")
    page.locator("#confirm-on").check()
    for gap in ("1", "5", "9"):
        page.locator(f'input[name=gap][value="{gap}"]').check()
    page.locator("#send").click()
    # Prepared, not sent: the button asks for the confirmation and the cut lines are on the pizza.
    assert page.locator("#send").inner_text() == "Confirm the cut"
    assert page.locator("#change-decision").is_visible()
    assert page.locator("line.cut.pending").count() == 3
    assert LiveGame.objects.get(pk=match.pk).turn == 0
    resign(match.id, ben)
    page.wait_for_selector("text=forfeited")
    assert page.locator("#send").inner_text() == "Confirm the cut"
    shot(page, "51-confirm-step")
    # "Change" undoes the preparation; ticking again and pressing twice sends.
    page.locator("#change-decision").click()
    assert page.locator("#send").inner_text() == "Cut"
    page.locator("#send").click()
    page.locator("#send").click()
    page.wait_for_function("() => document.getElementById('panel').dataset.turn !== '0'")
    assert LiveGame.objects.get(pk=match.pk).record["actions"][0]["cuts"] == [1, 5, 9]
    # The choice is remembered for the next visit.
    page.reload()
    assert page.locator("#confirm-on").is_checked()
    page.context.close()


def test_a_press_on_a_gap_dot_that_straddles_a_redraw_still_ticks_the_gap(browser: Any, site: str) -> None:
    from play.events import TurnTaken, publish

    match, _ = _table()
    page = sign_in(browser, site, "ann")
    page.goto(f"{site}/play/{match.id}/")
    page.wait_for_selector("html[data-live=on]")
    box = page.locator('svg .gap-button[data-gap="6"]').bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # The table redraws between the pointer going down and coming up.
    before = _refreshes(page)
    publish(TurnTaken(match.id, 0, False, "seat"))
    page.wait_for_function("n => +document.getElementById('panel').dataset.refreshes >= n", arg=before + 1)
    page.mouse.up()
    assert page.locator('input[name=gap][value="6"]').is_checked()
    assert page.locator('line.cut.pending[data-gap="6"]').count() == 1
    page.context.close()
