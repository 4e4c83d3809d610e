"""Names are unique whatever the case, and a look-alike of a built-in bot is refused, everywhere."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.test import Client
from rest_framework.test import APIClient

from arena.models import Player
from arena.names import name_refusal

PASSWORD = "a-long-passphrase"


@pytest.mark.parametrize("name", ["GREEDY", "Random", "se-arch", "gr_ee.dy", "S.E.A.R.C.H"])
def test_look_alikes_of_built_in_bots_are_refused(db: None, name: str) -> None:
    assert "too close to the built-in bot" in (name_refusal(name) or "")


def test_the_database_refuses_a_name_differing_only_by_case(db: None) -> None:
    Player.objects.create(name="Chef", kind=Player.Kind.BOT)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="chef", kind=Player.Kind.BOT)
    User.objects.create_user("Anna", password=PASSWORD)
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("anna", password=PASSWORD)


def test_sign_up_refuses_a_built_in_look_alike_and_another_case(db: None) -> None:
    api = APIClient()
    refused = api.post("/api/accounts/", {"username": "Greedy", "password": PASSWORD}, format="json")
    assert refused.status_code == 400 and "built-in bot 'greedy'" in refused.json()["username"][0]
    form = {"username": "Search", "password1": PASSWORD, "password2": PASSWORD}
    page = Client().post("/signup/", form)
    assert page.status_code == 200 and "built-in bot" in page.content.decode()


def test_a_bot_cannot_be_created_or_renamed_to_a_look_alike(db: None) -> None:
    owner = User.objects.create_user("owner", password=PASSWORD)
    api = APIClient()
    api.force_authenticate(owner)
    hosted = {"game": "part-du-chef", "endpoint": "https://bots.example.org/x"}
    created = api.post("/api/bots/", {"name": "GREEDY", **hosted}, format="json")
    assert created.status_code == 400 and "built-in bot" in created.json()["detail"]
    made = api.post("/api/bots/", {"name": "mine", **hosted}, format="json")
    assert made.status_code == 201, made.content
    renamed = api.patch(f"/api/bots/{made.json()['id']}/", {"name": "GREEDY"}, format="json")
    assert renamed.status_code == 400 and "built-in bot" in renamed.json()["detail"]
    Player.objects.create(name="Other", kind=Player.Kind.BOT)
    clash = api.patch(f"/api/bots/{made.json()['id']}/", {"name": "OTHER"}, format="json")
    assert clash.status_code == 400 and "already exists" in clash.json()["detail"]
    assert api.patch(f"/api/bots/{made.json()['id']}/", {"name": "Mine"}, format="json").status_code == 200
