"""In Chromium at 1280 × 800, in English, French and Norwegian: the pages of the table's second pass fit
the screen (no sideways scrolling) and are kept as screenshots to look at."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browsing import PASSWORD, shot, sign_in

pytestmark = pytest.mark.system
LOCALES = {"en": "en-GB", "fr": "fr-FR", "nb": "nb-NO"}


def test_the_table_pages_fit_a_laptop_in_three_languages(browser: Any, site: str, finished_match: Any) -> None:
    from django.contrib.auth.models import User

    from arena.models import Match
    from arena.people import person_of
    from play.engine import create_live_match, submit_action

    ann, ben = (person_of(User.objects.create_user(n, password=PASSWORD)) for n in ("ann7", "ben7"))
    match = create_live_match(
        game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[ann, ben], seed=29, options={"marianne": True}
    )
    submit_action(match.id, ann, 0, {"type": "cut", "cuts": [0, 9], "marianne": None})
    pages = {
        "lobby": "/play/",
        "now-playing": "/now-playing/",
        "table": f"/play/{match.id}/",
        "game-over": f"/play/{finished_match.id}/",
        "profile": f"/players/{ann.id}/",
    }
    wide = {}
    for language, locale in LOCALES.items():
        page = sign_in(browser, site, "ben7", locale=locale)
        for name, path in pages.items():
            page.goto(site + path)
            page.wait_for_load_state("load")
            width = int(page.evaluate("document.documentElement.scrollWidth"))
            if width > 1280:
                wide[f"{name}-{language}"] = width
            shot(page, f"70-laptop-{name}-{language}")
        page.context.close()
    assert wide == {}
