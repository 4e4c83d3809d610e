"""Fixtures for the play table: people with accounts, a table of them, and a client per person."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from arena.models import Match, Player
from arena.people import person_of
from play.engine import create_live_match


@pytest.fixture
def person(db: None) -> Callable[[str], Any]:
    """An account and its human player."""

    def make(name: str) -> Any:
        user = User.objects.create_user(name, password="a-long-passphrase")
        return person_of(user)

    return make


def client_of(player: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(player.owner)
    return client


@pytest.fixture
def table(person: Callable[[str], Any]) -> Callable[..., Any]:
    """A running interactive match of the given people (names) and built-in bots ("bot:greedy")."""

    def make(*seats: str, seed: int = 29, kind: str = Match.Kind.ARENA, marianne: bool = False) -> Any:
        players = []
        for name in seats:
            if name.startswith("bot:"):
                players.append(Player.objects.get(name=name.removeprefix("bot:")))
            else:
                players.append(person(name))
        return create_live_match(
            game="part-du-chef", kind=kind, players=players, seed=seed, options={"marianne": marianne}
        )

    return make


def post_action(client: APIClient, match_id: int, turn: int, action: dict[str, Any]) -> Any:
    return client.post(f"/api/matches/{match_id}/actions/", {"turn": turn, "action": action}, format="json")


def cut(points: list[int], marianne: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": "cut", "cuts": points, "marianne": marianne}


def take(portion: int, eat: list[int] | None = None, steals: list[dict[str, int]] | None = None, **kw: Any) -> dict:
    return {"type": "take", "portion": portion, "eat": eat or [], "steals": steals or [], **kw}
