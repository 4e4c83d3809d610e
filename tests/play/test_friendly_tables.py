"""Friendly tables: a player opens a table, invites people or bots, and plays unrated."""

from __future__ import annotations

from typing import Any

from arena.models import Match, Player
from tests.play.conftest import client_of


def test_a_table_starts_once_every_person_invited_accepts_and_is_never_rated(person: Any) -> None:
    ann, ben = person("ann"), person("ben")
    greedy = Player.objects.get(name="greedy")
    opened = client_of(ann).post(
        "/api/tables/",
        {"game": "part-du-chef", "guests": [ben.id, greedy.id], "options": {"marianne": True}},
        format="json",
    )
    assert opened.status_code == 201, opened.content
    table = opened.json()
    assert table["status"] == "open" and table["match"] is None
    assert [seat["accepted"] for seat in table["seats"]] == [True, False, True]
    assert client_of(ben).get("/api/tables/").json()["results"][0]["id"] == table["id"]
    accepted = client_of(ben).post(f"/api/tables/{table['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "started"
    match = Match.objects.get(pk=accepted.json()["match"])
    assert match.kind == Match.Kind.FRIENDLY and match.rated is False and match.options["marianne"] is True
    assert list(match.seats.order_by("seat").values_list("player_id", flat=True)) == [ann.id, ben.id, greedy.id]


def test_a_declined_table_is_cancelled_and_others_cannot_see_it(person: Any) -> None:
    ann, ben, cat = person("ann"), person("ben"), person("cat")
    table = client_of(ann).post("/api/tables/", {"game": "part-du-chef", "guests": [ben.id]}, format="json").json()
    assert client_of(cat).get(f"/api/tables/{table['id']}/").status_code == 404
    assert client_of(cat).post(f"/api/tables/{table['id']}/accept/").status_code == 404
    declined = client_of(ben).post(f"/api/tables/{table['id']}/decline/")
    assert declined.json()["status"] == "cancelled"
    late = client_of(ben).post(f"/api/tables/{table['id']}/accept/")
    assert late.status_code == 400 and late.json()["detail"] == f"table {table['id']} is cancelled"


def test_opening_a_table_names_the_problem(person: Any) -> None:
    ann = person("ann")
    for guests, message in [
        ([], "La Part du Chef is played by 2 to 5 players, not 1"),
        ([ann.id], "you sit at your own table already; invite others"),
        ([999999], "unknown player 999999"),
    ]:
        response = client_of(ann).post("/api/tables/", {"game": "part-du-chef", "guests": guests}, format="json")
        assert response.status_code == 400 and response.json()["detail"] == message
