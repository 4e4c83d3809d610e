"""In a real headless Chromium: two people sign up, queue, play a ranked 3-player game with a house bot to
the end, see their rating move, then browse the leaderboard and the replay. Screenshots go to
test-artifacts/ for people to look at."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connections

from arena.builtin import ensure_builtin_bots
from arena.models import Match, MatchSeat, Player
from matchmaking import matchmaker
from play.engine import play_turn
from play.models import LiveGame
from ratings.models import Rating, RatingChange
from tests.web.browsing import shot, sign_up

pytestmark = pytest.mark.system


def decide(page: Any, turn: str, gaps: tuple[str, ...] = ("0", "4", "8")) -> None:
    """Make this seat's decision through the form: three gaps, or the first portion eating one slice."""
    form = page.locator("#play-form")
    if form.locator("input[name=phase][value=cut]").count():
        # One gap by clicking its dot on the pizza, the others by keyboard on the checkboxes.
        page.locator(f'svg .gap-button[data-gap="{gaps[0]}"]').click()
        for gap in gaps[1:]:
            box = page.locator(f'input[name=gap][value="{gap}"]')
            box.focus()
            page.keyboard.press("Space")
        assert page.locator("line.cut.pending").count() == len(gaps)
    else:
        # No portion is chosen for the player: they pick one.
        form.locator("input[name=portion]").first.check()
        eat = page.locator(".portion.selected input[type=checkbox][name^=eat-]")
        if eat.count():
            eat.first.check()
    page.locator("#send").click()
    page.wait_for_function("turn => document.getElementById('panel').dataset.turn !== turn", arg=turn, timeout=15000)


@pytest.mark.django_db(transaction=True)
def test_two_people_and_a_bot_play_a_ranked_game_in_the_browser(
    browser: Any, live_server: Any, workers: Any, settings: Any, monkeypatch: Any
) -> None:
    try:
        play_and_browse(browser, live_server, workers, settings, monkeypatch)
    finally:
        # While Playwright's loop runs, the test's queries get a connection of their own (another
        # context); close it so that it does not outlive the test database.
        connections.close_all()


def play_and_browse(browser: Any, live_server: Any, workers: Any, settings: Any, monkeypatch: Any) -> None:
    # The live server answers each request in a thread of its own: close its connection after the
    # request, so none outlives the test database.
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
    ensure_builtin_bots(Player)
    settings.ARENA_HOUSE_AFTER_SECONDS_PEOPLE = 0
    settings.ARENA_HOUSE_LADDER = ["greedy"]
    workers.start("browser-bots")
    base = live_server.url

    alice = sign_up(browser, base, "alice")
    bob = sign_up(browser, base, "bob")
    for page in (alice, bob):
        page.get_by_label("Table size").select_option("3")
        page.get_by_role("button", name="Join the queue").click()
    assert "number 2 in the queue" in bob.content()
    shot(alice, "01-lobby-waiting")

    # What beat does every few seconds: the matchmaker seats them with a house bot.
    (match_id,) = matchmaker.tick()
    for page in (alice, bob):
        page.wait_for_url(re.compile(rf".*/play/{match_id}/$"), timeout=15000)
    seated = {
        seat.player.name: seat.seat for seat in MatchSeat.objects.filter(match_id=match_id).select_related("player")
    }
    assert set(seated) == {"alice", "bob", "greedy"}

    shots = 0
    while Match.objects.get(pk=match_id).status != Match.Status.FINISHED:
        acted = False
        for page in (alice, bob):
            panel = page.locator("#panel")
            if page.locator("#play-form").count() and panel.get_attribute("data-status") == "running":
                if shots < 2:
                    shot(page, f"02-play-{'cut' if page.locator('input[name=phase][value=cut]').count() else 'take'}")
                    shots += 1
                decide(page, panel.get_attribute("data-turn"))
                acted = True
        if not acted:
            alice.wait_for_timeout(300)
    match = Match.objects.get(pk=match_id)
    assert match.rated and len(match.record["actions"]) == 20

    for page in (alice, bob):
        page.wait_for_selector("text=See the replay and the final scores", timeout=15000)
    shot(alice, "03-play-finished")

    # Every decision has its line in the game log, in order, naming who took it and what it was.
    players = match.record["players"]
    log = alice.locator(".game-log li").all_inner_texts()[::-1]  # oldest first
    moves = [line for line in log if not line.startswith("Pizza ")]
    assert len(log) == len(match.record["actions"]) + 5
    assert len(moves) == len(match.record["actions"])
    for line, action in zip(moves, match.record["actions"], strict=True):
        who = players[action["seat"]] + (" (you)" if players[action["seat"]] == "alice" else "")
        assert line.startswith(who), (line, action)
        if action["type"] == "cut":
            assert f"cut pizza {action['pizza'] + 1} into 3 portions" in line, line
        else:
            assert f"took portion {action['portion'] + 1}" in line, line
    # The game-over panel: her place and her rating before and after.
    over = alice.locator("#panel").inner_text()
    alice_seat = next(seat for seat in MatchSeat.objects.filter(match_id=match_id) if seat.player.name == "alice")
    # However the game went (people's moves and the bot's are not fixed): a win is said as one.
    place = "You won: first of 3." if alice_seat.rank == 1 else f"You finished number {alice_seat.rank} of 3."
    assert place in over, over
    assert f"1500 → {alice_seat.rating_after:.0f}" in over

    # The ratings moved, once, and alice's profile shows hers.
    seats = list(MatchSeat.objects.filter(match_id=match_id).select_related("player"))
    assert RatingChange.objects.filter(match_id=match_id).count() == 3
    winner = min(seats, key=lambda seat: seat.rank)
    assert winner.rating_after > winner.rating_before == 1500.0
    rating = Rating.objects.get(player__name="alice", game="part-du-chef")
    assert rating.games == 1
    alice.goto(f"{base}/players/{rating.player_id}/")
    assert f"{rating.rating:.0f}" in alice.locator(".facts").inner_text()
    assert alice.locator("svg.chart").count() == 1
    shot(alice, "04-profile")

    # The leaderboard, its filters and the search.
    bob.goto(f"{base}/leaderboard/part-du-chef/?kind=human")
    names = bob.locator("table.board tbody td:nth-child(2)").all_inner_texts()
    assert set(names) == {"alice", "bob"}
    bob.get_by_label("Find a player by name").fill("ali")
    bob.get_by_role("button", name="Search").click()
    assert bob.locator("table.board tbody td:nth-child(2)").all_inner_texts() == ["alice"]
    bob.goto(f"{base}/leaderboard/part-du-chef/")
    shot(bob, "05-leaderboard")

    # The replay: buttons and keys step through the game.
    bob.goto(f"{base}/matches/{match_id}/")
    step = bob.locator('[data-role="step"]')
    assert step.inner_text() == "20"
    assert bob.locator("svg.pizza line.cut.shown").count() == 15
    shot(bob, "06-replay-final")
    bob.keyboard.press("Home")
    assert step.inner_text() == "0" and bob.locator("svg.pizza line.cut.shown").count() == 0
    assert "The deal" in bob.locator('[data-role="caption"]').inner_text()
    for _ in range(3):
        bob.get_by_role("button", name="Forward").click()
    bob.keyboard.press("ArrowRight")
    assert step.inner_text() == "4"
    assert bob.locator('svg.pizza[data-pizza="0"] line.cut.shown').count() == 3
    assert bob.locator('svg.pizza[data-pizza="0"] .slice.kept, svg.pizza[data-pizza="0"] .slice.eaten').count() == 13
    bob.get_by_role("button", name="Back").click()
    assert step.inner_text() == "3"
    shot(bob, "07-replay-step-3")
    with bob.expect_download() as download:
        bob.get_by_role("link", name="Download the record (JSON)").click()
    assert download.value.suggested_filename == f"match-{match_id}.json"

    alice.goto(f"{base}/")
    shot(alice, "09-home")
    alice.goto(f"{base}/rules/")
    assert "Keep or eat" in alice.locator("article").inner_text()
    shot(alice, "10-rules")

    # The same page in French and Norwegian, from the browser's language.
    for locale, word in (("fr-FR", "Rediffusion"), ("nb-NO", "Reprise")):
        context = browser.new_context(locale=locale, viewport={"width": 1200, "height": 900})
        page = context.new_page()
        page.goto(f"{base}/matches/{match_id}/")
        assert word in page.locator("h2#replay-title").inner_text()
        shot(page, f"08-replay-{locale}")
        context.close()


@pytest.mark.django_db(transaction=True)
def test_a_friendly_table_with_la_marianne_in_the_browser(browser: Any, live_server: Any, monkeypatch: Any) -> None:
    try:
        use_the_card(browser, live_server, monkeypatch)
    finally:
        connections.close_all()


def use_the_card(browser: Any, live_server: Any, monkeypatch: Any) -> None:
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
    ensure_builtin_bots(Player)
    base = live_server.url
    page = sign_up(browser, base, "carla")
    page.get_by_label("Invite players or bots, by name, separated by commas").fill("greedy")
    page.get_by_label("Play with La Marianne").check()
    page.get_by_role("button", name="Open the table").click()
    page.get_by_role("link", name=re.compile("Go to your table")).click()
    match = Match.objects.get(kind=Match.Kind.FRIENDLY)
    assert not match.rated and match.options["marianne"] is True
    assert "holds La Marianne" in page.locator("table.players").inner_text()

    # Carla cuts (seat 0, the chef); then greedy takes, as a worker would have it do.
    decide(page, "0", gaps=("0", "6"))
    assert play_turn(match.id, 1) == "played"
    page.wait_for_function("() => document.getElementById('panel').dataset.turn === '2'", timeout=15000)

    # Her take, with her card: two slices of the portion she takes for two of greedy's.
    page.locator("#play-form input[name=portion]").first.check()
    page.get_by_label("Use my card").check()
    give = page.locator(".card-choices fieldset").first.locator("label:visible input")
    take = page.locator(".card-choices fieldset").nth(1).locator("input")
    assert give.count() >= 2 and take.count() >= 2
    given = [give.nth(i).get_attribute("value") for i in range(2)]
    taken = [take.nth(i).get_attribute("value") for i in range(2)]
    for i in range(2):
        give.nth(i).check()
        take.nth(i).check()
    shot(page, "11-play-la-marianne")
    page.locator("#send").click()
    page.wait_for_function("() => document.getElementById('panel').dataset.turn === '3'", timeout=15000)
    swap = LiveGame.objects.get(pk=match.pk).record["actions"][2]["marianne"]
    assert swap == {"give": [int(v) for v in given], "take": [int(v) for v in taken]}
    assert "holds La Marianne" not in page.locator("table.players").inner_text()
