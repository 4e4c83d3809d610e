"""In Chromium at 360 × 740, in English, French and Norwegian: no page is wider than the screen and no table
is cut (the leaderboard, the players at the table, the rules' slices), the header shows the whole brand
in one compact row with a menu, "Your turn" shows every portion to choose on the first screen, above the
sticky button, seats are counted 1 to N as the rules count them, the chat's Mute and Report are touch
targets, the language menu names each language in its own words, the replay's play button says "play
back", and the owners' page says a failed validation in one line with the compiler's output folded."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browsing import ARTIFACTS, PASSWORD, shot, sign_in

pytestmark = pytest.mark.system
PHONE = {"width": 360, "height": 740}
LOCALES = {"en": "en-GB", "fr": "fr-FR", "nb": "nb-NO"}
PLAY_BACK = {"en": "Play", "fr": "Lecture", "nb": "Spill av"}
COMPILER = "\n".join(f"main.c:{n}:13: error: expected ';' before '}}' token (and more)" for n in range(40))


def _nine_slice_portion() -> Any:
    """Ann cut pizza 1 into portions of 9 and 4 slices; Ben (seat 2) is to take one; Ann said hello."""
    from django.contrib.auth.models import User

    from arena.models import Match
    from arena.people import person_of
    from play import chat
    from play.engine import create_live_match, submit_action

    ann, ben = (person_of(User.objects.create_user(n, password=PASSWORD)) for n in ("ann9", "ben9"))
    match = create_live_match(game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[ann, ben], seed=29)
    submit_action(match.id, ann, 0, {"type": "cut", "cuts": [0, 9], "marianne": None})
    chat.say(match, ann, "Bon appétit")
    return match


def _rejected_bot(owner_name: str) -> None:
    """A bot of ben9's whose second version did not build: the reason holds the compiler's whole output."""
    from django.contrib.auth.models import User

    from arena.models import Player
    from submissions.models import BotVersion, SubmittedBot

    owner = User.objects.get(username=owner_name)
    player = Player.objects.create(name="ben9-bot", kind=Player.Kind.BOT, owner=owner)
    bot = SubmittedBot.objects.create(player=player, game="part-du-chef")
    BotVersion.objects.create(bot=bot, number=1, source="upload", filename="main.c", status="active")
    BotVersion.objects.create(
        bot=bot,
        number=2,
        source="upload",
        filename="main.c",
        status="rejected",
        reason=f"the build failed (exit status 1)\n{COMPILER}",
        log=[{"build": COMPILER, "error": "the build failed (exit status 1)"}],
    )


CUT_TABLES = """() => Array.from(document.querySelectorAll('main table')).filter(t => t.offsetParent !== null)
  .filter(t => t.scrollWidth > t.clientWidth + 1).map(t => t.className || t.closest('section,main').className)"""


def test_every_page_fits_a_360_px_phone_in_three_languages(browser: Any, site: str, finished_match: Any) -> None:
    match = _nine_slice_portion()
    _rejected_bot("ben9")
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
    wide, cut = {}, {}
    for language, locale in LOCALES.items():
        page = sign_in(browser, site, "ben9", locale=locale, **PHONE)
        for name, path in pages.items():
            page.goto(site + path)
            page.wait_for_load_state("load")
            width = int(page.evaluate("document.documentElement.scrollWidth"))
            if width > PHONE["width"]:
                wide[f"{name}-{language}"] = width
            if tables := page.evaluate(CUT_TABLES):
                cut[f"{name}-{language}"] = tables
            header = page.locator("header.top").bounding_box()
            assert header is not None and header["height"] <= 64, (name, language, header)
            # The whole brand shows, never "L…".
            assert page.locator("header.top .brand").evaluate("b => b.scrollWidth <= b.clientWidth"), (name, language)
            # ben9's game in progress is named whole too ("Table 2").
            playing = page.locator("header.top a.playing")
            assert playing.evaluate("a => a.scrollWidth <= a.clientWidth"), (name, language, playing.inner_text())
            # Each language is named in its own words, whatever the page's language.
            menu = page.locator("#language option")
            assert menu.all_inner_texts() == ["English", "Français", "Norsk bokmål"]
            assert [menu.nth(i).get_attribute("lang") for i in range(3)] == ["en", "fr", "nb"]
            shot(page, f"60-phone-{name}-{language}")
        page.goto(site + pages["table-9-slices"])
        page.wait_for_selector("#chat-log .mute")
        assert page.locator('.portion[data-portion="0"] .portion-pick .chip').count() == 9
        # Your turn: the status and every portion to pick are on the first screen, above the sticky button.
        assert page.locator("#status-line strong").is_visible()
        send_row = page.locator(".send-row").bounding_box()
        assert send_row is not None
        for pick in page.locator(".portion-pick").all():
            box = pick.bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= send_row["y"], (language, box)
        # Seats count 1 to N, as the rules do.
        seats = page.locator("table.players tbody tr td:first-child").all_inner_texts()
        assert [s.split()[0] for s in seats] == ["1", "2"], seats
        # The chat's Mute and Report are touch targets.
        for button in (page.locator("#chat-log .mute").first, page.locator("#chat-log .report").first):
            box = button.bounding_box()
            assert box is not None and box["height"] >= 44 and box["width"] >= 44, (language, box)
        shot(page, f"62-phone-your-turn-{language}")
        page.screenshot(path=str(ARTIFACTS / f"62-phone-your-turn-first-screen-{language}.png"))
        # The menu opens in one row of buttons and shows the links.
        page.locator("#menu-button").click()
        assert page.locator("#menu nav a").first.is_visible()
        shot(page, f"61-phone-menu-{language}")
        # The replay's button plays the recording back.
        page.goto(f"{site}/matches/{finished_match.id}/")
        assert page.locator("[data-role=autoplay]").get_attribute("data-play") == PLAY_BACK[language]
        # The owners' page: a failed validation in one line, the compiler's output behind a disclosure.
        page.goto(f"{site}/my-bots/")
        cell = page.locator("tr.version td.validation").first
        assert cell.locator(".validation-summary").inner_text() == "the build failed (exit status 1)"
        assert not cell.locator("pre").is_visible()
        cell.locator("summary").click()
        assert "main.c:39:13: error" in cell.locator("pre").inner_text()
        shot(page, f"63-phone-owners-build-log-{language}")
        page.context.close()
    assert wide == {}
    assert cut == {}
