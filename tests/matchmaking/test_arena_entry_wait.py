"""An arena entry says why it waits and for about how long."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from arena.models import Player
from matchmaking import matchmaker
from ratings.models import Rating

GAME = "part-du-chef"


@pytest.fixture
def owner(db: None) -> User:
    return User.objects.create_user("owner")


def client_of(user: User) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def enter(api: APIClient, player: Player, size: int = 2) -> dict:
    response = api.post("/api/arena/entries/", {"player": player.id, "game": GAME, "table_size": size}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_new_bot_is_told_it_is_placed_against_the_house_ladder_at_the_next_tick(owner, settings) -> None:
    settings.ARENA_MATCHMAKING_SECONDS = 2.0
    bot = Player.objects.create(name="fresh", kind="bot", builtin="random", owner=owner)
    wait = enter(client_of(owner), bot)["wait"]
    assert wait["state"] == "placing" and wait["expected_seconds"] == 2.0
    assert "placement (0 of 10 rated games" in wait["reason"] and wait["match"] is None


def test_a_placed_bot_is_told_when_house_bots_come_and_then_which_match_it_plays(owner, settings) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_BOTS = 10.0
    settings.ARENA_MATCHMAKING_SECONDS = 2.0
    bot = Player.objects.create(name="placed", kind="bot", builtin="random", owner=owner)
    Rating.objects.create(player=bot, game=GAME, kind="bot", rating=1620.0, games=40)
    api = client_of(owner)
    began = time.monotonic()
    created = enter(api, bot)
    # However slow the machine, the entry had waited at most this long when its wait was explained.
    waited = time.monotonic() - began
    wait = created["wait"]
    assert wait["state"] == "waiting" and 10.0 - waited <= wait["expected_seconds"] <= 12.0
    window = re.search(r"rated within (\d+) of 1620 \(the window widens by 25 a second\)", wait["reason"])
    assert window is not None, wait["reason"]
    assert 100 <= int(window[1]) <= 100 + 25 * waited + 1
    assert "house bots fill the empty seats after 10 s of waiting" in wait["reason"]
    settings.ARENA_HOUSE_AFTER_SECONDS_BOTS = 0.0
    (match_id,) = matchmaker.tick()
    listed = api.get("/api/arena/entries/").json()
    entries = listed["results"] if isinstance(listed, dict) else listed
    assert entries[0]["wait"]["state"] == "playing" and entries[0]["wait"]["match"] == match_id
    assert api.get(f"/api/arena/entries/{created['id']}/").json()["wait"]["reason"] == (
        f"playing arena match {match_id} (queued)"
    )


def test_with_no_ladder_the_wait_has_no_estimate_and_others_entries_answer_404(owner, settings) -> None:
    settings.ARENA_HOUSE_LADDER = []
    bot = Player.objects.create(name="lonely", kind="bot", builtin="random", owner=owner)
    entry = enter(client_of(owner), bot)
    assert entry["wait"]["state"] == "waiting" and entry["wait"]["expected_seconds"] is None
    stranger = client_of(User.objects.create_user("stranger"))
    assert stranger.get(f"/api/arena/entries/{entry['id']}/").status_code == 404


def test_a_left_entry_is_shown_as_left_and_leaving_it_again_says_so(owner, settings) -> None:
    bot = Player.objects.create(name="goer", kind="bot", builtin="random", owner=owner)
    api = client_of(owner)
    entry = api.post("/api/arena/entries/", {"player": bot.id, "table_size": 2}, format="json").json()  # no game
    assert entry["game"] == GAME
    assert api.delete(f"/api/arena/entries/{entry['id']}/").status_code == 204
    shown = api.get(f"/api/arena/entries/{entry['id']}/")
    assert shown.status_code == 200 and (shown.json()["active"], shown.json()["wait"]["state"]) == (False, "left")
    again = api.delete(f"/api/arena/entries/{entry['id']}/")
    assert (again.status_code, again.json()) == (
        404,
        {"detail": f"arena entry {entry['id']} (goer) has already left the arena"},
    )
    assert api.get("/api/arena/entries/999999/").json() == {"detail": "you have no arena entry 999999"}
    stranger = client_of(User.objects.create_user("stranger"))
    assert stranger.get(f"/api/arena/entries/{entry['id']}/").json() == {
        "detail": f"you have no arena entry {entry['id']}"
    }
