"""In Chromium, against the site served under ASGI: a person plays a whole friendly game against the house
bot greedy, in English on a laptop and in French on a phone. The game log tells every decision and each
finished pizza, an illegal cut is answered beside the Cut button in the page's language, and the
replay's captions speak it too."""

from __future__ import annotations

import re
from typing import Any

import pytest

from arena.models import Match
from games.part_du_chef import Steal, Take
from play.engine import play_turn
from play.models import LiveGame
from tests.web.browsing import shot, sign_up
from web.sentences import Seats, move

pytestmark = pytest.mark.system


WORDS = {
    "en": {
        "wrong_cut": "Choose 2 gaps to cut: you chose 1.",
        "counter": "1 of 2 gaps chosen",
        "cut": "{me} (you) cut pizza 1 into 2 portions at gaps ",
        "took": "greedy took portion ",
        "pizza": "Pizza 1 is shared out. Scores so far: ",
        "over": "Pizza 5 is eaten: the game is over. Final scores: ",
        "caption": " cut pizza 1 into 2 portions at gaps ",
    },
    "fr": {
        "wrong_cut": "Choisissez 2 interstices où couper : vous en avez choisi 1.",
        "counter": "Interstices choisis : 1 sur 2",
        "cut": "{me} (vous) a coupé la pizza 1 en 2 portions aux interstices ",
        "took": "greedy a pris la portion ",
        "pizza": "La pizza 1 est partagée. Scores pour l'instant : ",
        "over": "La pizza 5 est partagée : la partie est finie. Scores finaux : ",
        "caption": " a coupé la pizza 1 en 2 portions aux interstices ",
    },
}


def play_against_greedy(browser: Any, base: str, me: str, language: str, width: int, height: int) -> None:
    words = WORDS[language]
    page = sign_up(browser, base, me, locale="fr-FR" if language == "fr" else "en-GB", width=width, height=height)
    page.locator("#guests").fill("greedy")
    page.locator("button[name=open]").click()
    # Bots accept at once: the table starts and the lobby takes the host there.
    page.wait_for_url(re.compile(r".*/play/\d+/$"), timeout=5000)
    match = Match.objects.get(kind=Match.Kind.FRIENDLY, seats__player__name=me)
    assert page.url == f"{base}/play/{match.id}/"
    assert page.title().startswith("● ")  # seat 1 cuts first: the tab says it is their turn

    wrong_cut_seen = False
    while (game := LiveGame.objects.get(pk=match.pk)).to_act is not None:
        if game.to_act == 1:
            assert play_turn(match.id, game.turn) == "played"  # what a worker does for greedy
            continue
        page.wait_for_function("t => document.getElementById('panel').dataset.turn === t", arg=str(game.turn))
        if page.locator("#play-form input[name=phase][value=cut]").count():
            page.locator('svg .gap-button[data-gap="2"]').click()
            if not wrong_cut_seen:
                assert page.locator("#gap-count").inner_text() == words["counter"]
                page.locator("#send").click()
                error = page.locator("#play-error")
                assert error.inner_text() == words["wrong_cut"]
                # Beside the Cut button, in view, not at the bottom of the page.
                button, box = page.locator("#send").bounding_box(), error.bounding_box()
                assert abs(box["y"] - (button["y"] + button["height"])) < 40
                assert 0 <= box["y"] and box["y"] + box["height"] <= height
                shot(page, f"30-illegal-cut-{language}-{width}")
                wrong_cut_seen = True
            page.locator('input[name=gap][value="9"]').check()
        else:
            page.locator("#play-form input[name=portion]").first.check()
            eat = page.locator(".portion.selected input[name^=eat-]:not([disabled])")
            if eat.count():
                eat.first.check()
        page.locator("#send").click()
        page.wait_for_function("t => document.getElementById('panel').dataset.turn !== t", arg=str(game.turn))
    assert wrong_cut_seen

    page.wait_for_selector("#panel[data-status=finished]", timeout=5000)
    log = page.locator(".game-log li").all_inner_texts()[::-1]  # oldest first
    record = Match.objects.get(pk=match.pk).record
    moves = [line for line in log if not line.startswith(words["pizza"][:8])]
    assert len(log) == len(record["actions"]) + 5 == 20
    assert log[0].startswith(words["cut"].format(me=me))
    first_take = record["actions"][1]
    assert log[1].startswith(words["took"] + str(first_take["portion"] + 1))
    assert log[3].startswith(words["pizza"])
    assert log[-1].startswith(words["over"])
    assert len(moves) >= 15
    shot(page, f"31-game-over-{language}-{width}")

    page.goto(f"{base}/matches/{match.id}/?step=1")
    assert words["caption"] in page.locator('[data-role="caption"]').inner_text()
    page.context.close()


def test_a_friendly_game_against_greedy_tells_its_story_in_english(browser: Any, site: str) -> None:
    play_against_greedy(browser, site, "fay", "en", 1280, 800)


def test_a_french_game_on_a_phone_answers_and_tells_in_french(browser: Any, site: str) -> None:
    play_against_greedy(browser, site, "gael", "fr", 390, 844)


def test_the_log_line_of_a_steal_names_the_victim_as_you() -> None:
    text = move(Take(0, steals=(Steal(7, 0, 3),)), 1, 0, Seats(["fay", "greedy"], viewer=0), (7,))
    assert re.search(r"Their double finisher stole your Margherita \(2 olives\)\.$", text)
