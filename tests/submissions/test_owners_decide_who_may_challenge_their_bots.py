"""A bot's owner decides who may seat it in friendly matches and at friendly tables (`challengers`: anyone,
the default, or its owner only, set by PATCH and shown on the bots page); a chosen seed is taken only when
every seat is a built-in bot or one of the asker's own bots."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from arena.models import Match, Player
from arena.people import person_of
from submissions.models import BotVersion, SubmittedBot

ENDPOINT = "https://bots.example.org/play"


@pytest.fixture
def alices_bot(submit: Callable[..., Any]) -> SubmittedBot:
    """An active hosted bot of alice's (activated here: validation is not what these tests are about)."""
    bot = submit("chefbot", endpoint=ENDPOINT, validate=False)
    BotVersion.objects.filter(bot=bot).update(status=BotVersion.Status.ACTIVE)
    return bot


def _friendly(api: APIClient, players: list[int], seed: int | None = None) -> Any:
    body: dict[str, Any] = {"game": "part-du-chef", "kind": "friendly", "players": players}
    if seed is not None:
        body["seed"] = seed
    return api.post("/api/matches/", body, format="json")


def _greedy() -> int:
    return Player.objects.get(name="greedy").id


def test_anyone_may_challenge_a_bot_by_default_but_not_choose_the_seed(
    alices_bot: SubmittedBot, client_for: Callable[[str], APIClient]
) -> None:
    assert alices_bot.challengers == SubmittedBot.Challengers.ANYONE
    bob = client_for("bob")
    assert _friendly(bob, [alices_bot.player_id, _greedy()]).status_code == 201
    seeded = _friendly(bob, [alices_bot.player_id, _greedy()], seed=7)
    assert seeded.status_code == 400
    assert "a seed may be chosen only for your own bots and built-in bots" in seeded.json()["detail"]
    assert not Match.objects.filter(seed=7).exists()


def test_the_owner_may_choose_a_seed_for_their_own_bots_and_built_in_bots(
    alices_bot: SubmittedBot, client_for: Callable[[str], APIClient]
) -> None:
    made = _friendly(client_for("alice"), [alices_bot.player_id, _greedy()], seed=7)
    assert made.status_code == 201, made.content
    assert Match.objects.get(pk=made.json()["id"]).seed == 7
    # Built-in bots only: anyone's reproducible experiment.
    builtin = _friendly(client_for("bob"), [_greedy(), Player.objects.get(name="random").id], seed=8)
    assert builtin.status_code == 201


def test_the_owner_closes_the_bot_to_others_by_patch(
    alices_bot: SubmittedBot, client_for: Callable[[str], APIClient]
) -> None:
    alice, bob = client_for("alice"), client_for("bob")
    url = f"/api/bots/{alices_bot.player_id}/"
    assert alice.get(url).json()["challengers"] == "anyone"
    changed = alice.patch(url, {"challengers": "owner"}, format="json")
    assert changed.status_code == 200 and changed.json()["challengers"] == "owner"
    refused = _friendly(bob, [alices_bot.player_id, _greedy()])
    assert refused.status_code == 403
    assert "plays friendly games for its owner only" in refused.json()["detail"]
    assert _friendly(alice, [alices_bot.player_id, _greedy()]).status_code == 201
    # Not bob's to change, and not a value the API knows.
    assert bob.patch(url, {"challengers": "anyone"}, format="json").status_code == 404
    assert alice.patch(url, {"challengers": "friends"}, format="json").status_code == 400
    assert alice.patch(url, {"challengers": "anyone"}, format="json").json()["challengers"] == "anyone"
    assert _friendly(bob, [alices_bot.player_id, _greedy()]).status_code == 201


def test_a_closed_bot_cannot_be_invited_to_another_accounts_table(
    alices_bot: SubmittedBot, client_for: Callable[[str], APIClient], users: dict[str, Any]
) -> None:
    SubmittedBot.objects.filter(pk=alices_bot.pk).update(challengers=SubmittedBot.Challengers.OWNER)
    person_of(users["bob"])
    refused = client_for("bob").post(
        "/api/tables/", {"game": "part-du-chef", "guests": [alices_bot.player_id]}, format="json"
    )
    assert refused.status_code == 403 and "for its owner only" in refused.json()["detail"]
    browser = Client()
    browser.force_login(users["bob"])
    # The lobby answers the form at once, the refusal beside the guests' field.
    page = browser.post("/play/", {"open": "1", "guests": "chefbot"})
    assert page.status_code == 400 and "for its owner only" in page.content.decode()
    assert not Match.objects.exists()


def test_the_bots_page_shows_who_may_challenge(alices_bot: SubmittedBot, users: dict[str, Any]) -> None:
    browser = Client()
    browser.force_login(users["alice"])
    assert "anyone (friendly matches and tables)" in browser.get("/my-bots/").content.decode()
    SubmittedBot.objects.filter(pk=alices_bot.pk).update(challengers=SubmittedBot.Challengers.OWNER)
    assert "only you (friendly matches and tables)" in browser.get("/my-bots/").content.decode()
