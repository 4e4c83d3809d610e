"""POST /api/accounts/: an account, its player and its token, with the web sign-up's rules; retries are safe."""

from __future__ import annotations

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from arena.models import Player

PASSWORD = "a-long-passphrase"


def test_signing_up_answers_the_account_and_a_token_that_works(db: None) -> None:
    response = APIClient().post("/api/accounts/", {"username": "zoe", "password": PASSWORD}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert set(body) == {"id", "player_id", "username", "token"}
    assert body["username"] == "zoe" and User.objects.get(pk=body["id"]).check_password(PASSWORD)
    # player_id is the id matches, ratings and the players' list use; id is the account's.
    assert Player.objects.get(pk=body["player_id"], owner_id=body["id"], kind="human").name == "zoe"
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert api.get("/api/arena/entries/").status_code == 200


def test_weak_passwords_and_taken_names_are_refused_by_field(db: None) -> None:
    api = APIClient()
    weak = api.post("/api/accounts/", {"username": "zoe", "password": "123"}, format="json")
    assert weak.status_code == 400 and "password" in weak.json()
    assert api.post("/api/accounts/", {"username": "zoe", "password": PASSWORD}, format="json").status_code == 201
    taken = api.post("/api/accounts/", {"username": "ZOE", "password": PASSWORD}, format="json")
    assert taken.status_code == 400 and "already exists" in taken.json()["username"][0]
    missing = api.post("/api/accounts/", {"username": "amy"}, format="json")
    assert missing.status_code == 400 and "password" in missing.json()


def test_a_retried_sign_up_with_its_key_answers_the_same_account(db: None) -> None:
    api, body = APIClient(), {"username": "zoe", "password": PASSWORD}
    first = api.post("/api/accounts/", body, format="json", HTTP_IDEMPOTENCY_KEY="s")
    again = api.post("/api/accounts/", body, format="json", HTTP_IDEMPOTENCY_KEY="s")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert User.objects.filter(username="zoe").count() == 1
