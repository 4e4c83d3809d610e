"""In Chromium at 360 × 740, in English, French and Norwegian: no page is wider than the screen (the
table with a portion of 9 slices included), the header is one compact row with a menu, and at the
table "Your turn" shows its choices on the first screen."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browsing import PASSWORD, shot, sign_in

pytestmark = pytest.mark.system
PHONE = {"width": 360, "height": 740}
LOCALES = {"en": "en-GB", "fr": "fr-FR", "nb": "nb-NO"}


def _nine_slice_portion() -> Any:
    """Ann cut pizza 1 into portions of 9 and 4 slices; Ben (seat 2) is to take one."""
    from django.contrib.auth.models import User

    from arena.models import Match
    from arena.people import person_of
    from play.engine import create_live_match, submit_action

    ann, ben = (person_of(User.objects.create_user(n, password=PASSWORD)) for n in ("ann9", "ben9"))
    match = create_live_match(game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[ann, ben], seed=29)
    submit_action(match.id, ann, 0, {"type": "cut", "cuts": [0, 9], "marianne": None})
    return match


def test_every_page_fits_a_360_px_phone_in_three_languages(browser: Any, site: str, finished_match: Any) -> None:
    match = _nine_slice_portion()
    ann = finished_match.seats.get(seat=0).player
    pages = {
        "home": "/",
        "leaderboard": "/leaderboard/part-du-chef/",
        "profile": f"/players/{ann.id}/",
        "replay": f"/matches/{finished_match.id}/",
        "rules": "/rules/",
        "lobby": "/play/",
        "now-playing": "/now-playing/",
        "table-9-slices": f"/play/{match.id}/",
        "game-over": f"/play/{finished_match.id}/",
        "my-bots": "/my-bots/",
    }
    wide = {}
    for language, locale in LOCALES.items():
        page = sign_in(browser, site, "ben9", locale=locale, **PHONE)
        for name, path in pages.items():
            page.goto(site + path)
            page.wait_for_load_state("load")
            width = int(page.evaluate("document.documentElement.scrollWidth"))
            if width > PHONE["width"]:
                wide[f"{name}-{language}"] = width
            header = page.locator("header.top").bounding_box()
            assert header is not None and header["height"] <= 64, (name, language, header)
            shot(page, f"60-phone-{name}-{language}")
        page.goto(site + pages["table-9-slices"])
        assert page.locator('.portion[data-portion="0"] .portion-pick .chip').count() == 9
        # Your turn: the status and the first portion to pick are on the first screen.
        assert page.locator("#status-line strong").is_visible()
        first = page.locator("input[name=portion]").first.bounding_box()
        assert first is not None and first["y"] + first["height"] <= PHONE["height"]
        # The menu opens in one row of buttons and shows the links.
        page.locator("#menu-button").click()
        assert page.locator("#menu nav a").first.is_visible()
        shot(page, f"61-phone-menu-{language}")
        page.context.close()
    assert wide == {}
