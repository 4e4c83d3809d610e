"""Looking for a match's secrets in an answer: its seed, its record, or a slice of a pizza not yet on the table."""

from __future__ import annotations

import json
import re
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from arena.models import Match, MatchSeat
from games.part_du_chef.deck import deal

SLICE_MARK = re.compile(r'data-slice="(\d+)"')


def pizzas_after(seed: int, pizza: int) -> set[int]:
    """The slice ids of the pizzas after `pizza` (pizza -1: all five) in the deal of `seed`."""
    return {sid for ring in deal(seed)[pizza + 1 :] for sid in ring}


def slice_ids(value: Any) -> set[int]:
    """Every slice id a JSON answer names: slice objects, portions' and legal choices' id lists."""
    found: set[int] = set()
    if isinstance(value, dict):
        if {"id", "sort", "olives"} <= set(value):
            found.add(value["id"])
        for key, item in value.items():
            # (The observation's own "slices" counts slice points per seat: not ids.)
            ids_list = key in {"edible", "give", "take"} or (key == "slices" and "index" in value)
            if ids_list and isinstance(item, list):
                found.update(i for i in item if isinstance(i, int))
            elif key == "slice" and isinstance(item, int):
                found.add(item)
            else:
                found |= slice_ids(item)
    elif isinstance(value, list):
        for item in value:
            found |= slice_ids(item)
    return found


def _secret_keys(value: Any, path: str = "") -> list[str]:
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "seed" and item is not None:
                found.append(f"{path}.seed = {item}")
            elif key == "pizzas":
                found.append(f"{path}.pizzas")
            else:
                found += _secret_keys(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _secret_keys(item, f"{path}[{index}]")
    return found


def leaks(body: bytes | str, seed: int, hidden: set[int]) -> list[str]:
    """What of the match's secrets `body` (a JSON answer or an HTML page) gives away: empty if nothing.

    `hidden` is the set of slice ids nobody may see yet (the pizzas still to come).
    """
    text = body.decode() if isinstance(body, bytes) else body
    found = []
    if re.search(rf"(?<![\w.]){seed}(?![\w.])", text):
        found.append(f"the seed {seed}")
    try:
        data = json.loads(text)
    except ValueError:
        named = {int(sid) for sid in SLICE_MARK.findall(text)}
    else:
        found += _secret_keys(data)
        named = slice_ids(data)
    if named & hidden:
        found.append(f"slices of pizzas to come: {sorted(named & hidden)}")
    return found


def api_client(user: User | None) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


def web_client(user: User | None) -> Client:
    web = Client()
    if user is not None:
        web.force_login(user)
    return web


def public_answers(match: Match, user: User | None) -> dict[str, Any]:
    """Every answer about `match` that a visitor (anonymous when `user` is None) can ask for."""
    api, web = api_client(user), web_client(user)
    seat_players = list(MatchSeat.objects.filter(match=match).values_list("player_id", flat=True))
    answers = {
        "match detail": api.get(f"/api/matches/{match.id}/"),
        "running matches": api.get("/api/matches/?status=running"),
        "all matches": api.get("/api/matches/"),
        "a player's matches": api.get(f"/api/matches/?player={seat_players[0]}"),
        "record": api.get(f"/api/matches/{match.id}/record/"),
        "table state": api.get(f"/api/matches/{match.id}/state/"),
        "web match page": web.get(f"/matches/{match.id}/", follow=True),
        "web record download": web.get(f"/matches/{match.id}/record.json"),
        "web player page": web.get(f"/players/{seat_players[0]}/"),
        "admin match page": web.get(f"/admin/arena/match/{match.id}/change/", follow=True),
    }
    if hasattr(match, "live"):
        answers["web play panel"] = web.get(f"/play/{match.id}/panel/")
    return answers


def assert_nothing_leaks(match: Match, seed: int, hidden: set[int], users: list[User | None]) -> None:
    for user in users:
        who = user.username if user is not None else "anonymous"
        for name, response in public_answers(match, user).items():
            assert response.status_code < 500, (who, name, response.status_code)
            found = leaks(response.content, seed, hidden)
            assert not found, f"{name} answered to {who} gives away {found}"
