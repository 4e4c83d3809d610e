"""In Chromium: the game-over panel shows every column of the standings (place, player, the score's parts,
the total, the rating) without overlapping anything, on a laptop and on a phone."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browsing import shot, sign_in

pytestmark = pytest.mark.system

COLUMNS = ("Majorities", "Olives", "Slices", "Variety", "Burnt", "Total", "Rating")


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.mark.parametrize("width,height", [(1280, 800), (360, 740)])
def test_every_column_of_the_standings_shows_without_overlap(
    browser: Any, site: str, finished_match: Any, width: int, height: int
) -> None:
    page = sign_in(browser, site, "ann", width=width, height=height, password="a-long-passphrase")
    page.goto(f"{site}/play/{finished_match.id}/")
    over = page.locator(".game-over")
    over.wait_for()
    page.wait_for_function("() => +(document.getElementById('panel').dataset.refreshes || 0) >= 1")
    box = over.bounding_box()
    shot(page, f"52-game-over-{width}")
    assert box is not None
    for other in ("table.players", "#log-title", "#pizza-title"):
        other_box = page.locator(other).bounding_box()
        assert other_box is not None and not _overlap(box, other_box), other
    rows = page.locator(".standings tbody tr")
    assert rows.count() == 3
    for index in range(rows.count()):
        cells = rows.nth(index).locator("td")
        assert cells.count() == 2 + len(COLUMNS)
        boxes = [cells.nth(c).bounding_box() for c in range(cells.count())]
        for cell in boxes:
            # Inside the panel and the screen: nothing to scroll sideways.
            assert cell is not None and cell["width"] > 0
            assert box["x"] - 1 <= cell["x"] and cell["x"] + cell["width"] <= min(width, box["x"] + box["width"]) + 1
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert a is not None and b is not None and not _overlap(a, b)
    me = page.locator(".standings tr.me")
    text = me.inner_text()
    # The person's own total and rating change are there to read, on the phone labelled.
    assert "→" in text
    if width < 700:
        # On a phone each number is written after its column's name.
        shown = me.locator("td[data-label]").evaluate_all(
            "tds => tds.map(td => getComputedStyle(td, '::before').content)"
        )
        assert shown == [f'"{label} "' for label in COLUMNS]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"52-game-over-{width}")
    page.context.close()
