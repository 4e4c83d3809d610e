"""Anyone signed in plays against the built-in bots: friendly matches, tournaments of their own; refusals say why."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from arena.models import Player

GAME = "part-du-chef"


def signed_in(name: str) -> APIClient:
    api = APIClient()
    api.force_authenticate(User.objects.create_user(name))
    return api


@pytest.fixture
def built_in(db: None) -> dict[str, Player]:
    return {name: Player.objects.get(name=name) for name in ("random", "greedy", "search-fast", "search")}


def test_anyone_signed_in_plays_a_friendly_match_against_built_in_bots(built_in) -> None:
    response = signed_in("ann").post(
        "/api/matches/",
        {"game": GAME, "kind": "friendly", "players": [built_in["greedy"].id, built_in["search-fast"].id]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["rated"] is False


def test_anyone_enters_built_in_bots_in_a_tournament_they_created(built_in) -> None:
    ann = signed_in("ann")
    tournament = ann.post(
        "/api/tournaments/",
        {"name": "ann's cup", "format": "round_robin", "table_size": 2, "rated": False},
        format="json",
    )
    assert tournament.status_code == 201, tournament.json()
    tid = tournament.json()["id"]
    for name in ("random", "greedy"):
        entered = ann.post(f"/api/tournaments/{tid}/entries/", {"player": built_in[name].id}, format="json")
        assert entered.status_code == 201, entered.json()
    refused = signed_in("ben").post(
        f"/api/tournaments/{tid}/entries/", {"player": built_in["search"].id}, format="json"
    )
    assert refused.status_code == 400
    assert "is a built-in bot: only the tournament's organiser" in refused.json()["detail"]


def test_entering_someone_elses_bot_says_whose_it_is(built_in) -> None:
    owner = User.objects.create_user("owner")
    theirs = Player.objects.create(name="theirs", kind="bot", owner=owner)
    ann = signed_in("ann")
    arena = ann.post("/api/arena/entries/", {"player": theirs.id, "game": GAME, "table_size": 2}, format="json")
    assert arena.status_code == 400
    assert arena.json()["detail"] == f"player {theirs.id} (theirs) belongs to another account; enter your own bots"
    tournament = ann.post(
        "/api/tournaments/", {"name": "cup", "format": "round_robin", "table_size": 2, "rated": False}, format="json"
    ).json()
    entry = ann.post(f"/api/tournaments/{tournament['id']}/entries/", {"player": theirs.id}, format="json")
    assert entry.status_code == 400
    assert "belongs to another account" in entry.json()["detail"]
    missing = ann.post(f"/api/tournaments/{tournament['id']}/entries/", {"player": 999999}, format="json")
    assert missing.json()["detail"] == "no player 999999"


def test_a_built_in_bot_is_not_entered_in_the_bots_arena_by_hand_it_joins_by_itself(built_in) -> None:
    response = signed_in("ann").post(
        "/api/arena/entries/", {"player": built_in["search"].id, "game": GAME, "table_size": 2}, format="json"
    )
    assert response.status_code == 400
    assert "joins the bots' arena by itself, as a house bot" in response.json()["detail"]
