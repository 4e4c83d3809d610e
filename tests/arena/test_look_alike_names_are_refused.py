"""Names are compared on their skeleton (NFKC, case folded, look-alike letters mapped): full-width, Cyrillic
and digit look-alikes of a taken or built-in name are refused with a 400 naming the problem, never a 500;
house copies' names (`greedy-2`) are reserved; names are stored as typed."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.test import Client
from rest_framework.test import APIClient

from arena.models import Player
from arena.names import name_refusal
from common.skeleton import skeleton

PASSWORD = "a-long-passphrase"


def _sign_up(name: str) -> object:
    return APIClient().post("/api/accounts/", {"username": name, "password": PASSWORD}, format="json")


@pytest.mark.parametrize(
    ("typed", "read_as"),
    [
        ("ｇｒｅｅｄｙ", "greedy"),
        ("gr\u0435\u0435dy", "greedy"),
        ("\u0455earch", "search"),
        ("ＡＬＩＣＥ", "alice"),
        ("a1ice", "alice"),
    ],
)
def test_the_skeleton_of_a_look_alike_is_the_name_it_imitates(typed: str, read_as: str) -> None:
    assert skeleton(typed) == skeleton(read_as)


def test_distinct_names_keep_distinct_skeletons() -> None:
    assert len({skeleton(name) for name in ("alice", "aiice", "bob", "olga", "ii", "ll", "café", "cafe")}) == 8


@pytest.mark.parametrize(
    "name", ["ｇｒｅｅｄｙ", "gr\u0435\u0435dy", "\u0455earch", "ＲＡＮＤＯＭ", "s\u0435arch-fast"]
)
def test_look_alikes_of_built_in_bots_are_refused_at_sign_up_with_a_400(db: None, name: str) -> None:
    answer = _sign_up(name)
    assert answer.status_code == 400, answer.content
    assert "too close to the built-in bot" in answer.json()["username"][0]
    assert not User.objects.exists()


@pytest.mark.parametrize(
    "name", ["greedy-2", "greedy2", "search_fast-12", "Random.3", "ｇｒｅｅｄｙ-7", "gr\u0435\u0435dy-2"]
)
def test_house_copies_names_are_reserved(db: None, name: str) -> None:
    assert "reserved" in (name_refusal(name) or "")
    answer = _sign_up(name)
    assert answer.status_code == 400 and "reserved" in answer.json()["username"][0]


@pytest.mark.parametrize("name", ["greedy-fan", "randomwalk", "searcher", "alice-2"])
def test_names_that_only_start_like_a_built_in_bot_are_free(db: None, name: str) -> None:
    assert name_refusal(name) is None


@pytest.mark.parametrize("name", ["ＡＬＩＣＥ", "a1ice", "ALICE", "\u0430lice", " alice"])
def test_a_look_alike_of_a_taken_account_answers_400_not_500(db: None, name: str) -> None:
    assert _sign_up("alice").status_code == 201
    answer = _sign_up(name)
    assert answer.status_code == 400, answer.content
    assert "already exists" in answer.json()["username"][0]
    assert User.objects.count() == 1 and Player.objects.filter(kind=Player.Kind.HUMAN).count() == 1


def test_the_web_sign_up_refuses_look_alikes_too(db: None) -> None:
    assert _sign_up("alice").status_code == 201
    for name in ("ＡＬＩＣＥ", "a1ice", "ｇｒｅｅｄｙ", "greedy-3"):
        page = Client().post("/signup/", {"username": name, "password1": PASSWORD, "password2": PASSWORD})
        assert page.status_code == 200, name  # the form again, with the error
    assert User.objects.count() == 1


def test_bots_cannot_take_a_look_alike_name_by_creation_or_rename(db: None) -> None:
    owner = User.objects.create_user("owner")
    Player.objects.create(name="chef", kind=Player.Kind.BOT)
    api = APIClient()
    api.force_authenticate(owner)
    hosted = {"game": "part-du-chef", "endpoint": "https://bots.example.org/x"}
    for name in ("ＣＨＥＦ", "ch\u0435f", "greedy-9"):
        refused = api.post("/api/bots/", {"name": name, **hosted}, format="json")
        assert refused.status_code == 400, (name, refused.content)
    made = api.post("/api/bots/", {"name": "mine", **hosted}, format="json")
    assert made.status_code == 201
    assert api.patch(f"/api/bots/{made.json()['id']}/", {"name": "ch\u0435f"}, format="json").status_code == 400
    Player.objects.create(name="olga", kind=Player.Kind.BOT)
    renamed = api.patch(f"/api/bots/{made.json()['id']}/", {"name": "0LGA"}, format="json")
    assert renamed.status_code == 400 and "already exists" in renamed.json()["detail"]


def test_names_are_stored_as_typed_and_the_database_refuses_a_second_skeleton(db: None) -> None:
    typed = Player.objects.create(name="Zoë", kind=Player.Kind.BOT)
    typed.refresh_from_db()
    assert (typed.name, typed.name_key) == ("Zoë", skeleton("Zoë"))
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="ＺＯË", kind=Player.Kind.BOT)
    typed.name = "Zoe"
    typed.save(update_fields=["name"])
    typed.refresh_from_db()
    assert typed.name_key == "zoe"
