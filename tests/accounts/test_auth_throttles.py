"""Wrong passwords and sign-ups are throttled: 429 with Retry-After, the right password refused meanwhile."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

PASSWORD = "a-long-passphrase"


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", password=PASSWORD)


def _token(api: APIClient, password: str, username: str = "alice", address: str = "10.0.0.1"):
    return api.post(
        "/api/auth/token/", {"username": username, "password": password}, format="json", REMOTE_ADDR=address
    )


def test_the_token_endpoint_refuses_even_the_right_password_after_too_many_wrong_ones(alice: User) -> None:
    api = APIClient()
    for _ in range(settings.ARENA_LOGIN_FAILURES_PER_ACCOUNT):
        assert _token(api, "wrong").status_code == 400
    refused = _token(api, PASSWORD)
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "try again in" in refused.json()["detail"]


def test_the_account_limit_holds_from_another_address(alice: User) -> None:
    api = APIClient()
    for index in range(settings.ARENA_LOGIN_FAILURES_PER_ACCOUNT):
        _token(api, "wrong", address=f"10.0.1.{index}")
    assert _token(api, PASSWORD, address="10.0.2.1").status_code == 429


def test_the_address_limit_holds_across_accounts(alice: User) -> None:
    api = APIClient()
    for index in range(settings.ARENA_LOGIN_FAILURES_PER_ADDRESS):
        _token(api, "wrong", username=f"nobody{index}")
    assert _token(api, PASSWORD).status_code == 429


def test_the_right_password_below_the_limit_gets_the_token(alice: User) -> None:
    api = APIClient()
    for _ in range(settings.ARENA_LOGIN_FAILURES_PER_ACCOUNT - 1):
        _token(api, "wrong")
    response = _token(api, PASSWORD)
    assert response.status_code == 200
    assert len(response.json()["token"]) == 40


def test_the_web_login_is_throttled_the_same_way(alice: User) -> None:
    browser = Client()
    for _ in range(settings.ARENA_LOGIN_FAILURES_PER_ACCOUNT):
        assert browser.post("/login/", {"username": "alice", "password": "wrong"}).status_code == 200
    refused = browser.post("/login/", {"username": "alice", "password": PASSWORD})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "_auth_user_id" not in browser.session


def test_sign_ups_are_limited_per_address_on_the_web_and_the_api(db: None) -> None:
    browser, api = Client(), APIClient()
    for index in range(settings.ARENA_SIGNUPS_PER_ADDRESS):
        if index % 2:
            made = api.post("/api/accounts/", {"username": f"p{index}", "password": PASSWORD}, format="json")
            assert made.status_code == 201
        else:
            form = {"username": f"p{index}", "password1": PASSWORD, "password2": PASSWORD}
            assert Client().post("/signup/", form).status_code == 302
    again = api.post("/api/accounts/", {"username": "one-more", "password": PASSWORD}, format="json")
    assert again.status_code == 429 and int(again["Retry-After"]) > 0
    form = {"username": "one-more", "password1": PASSWORD, "password2": PASSWORD}
    assert browser.post("/signup/", form).status_code == 429
    assert not User.objects.filter(username="one-more").exists()


def test_behind_a_trusted_proxy_the_forwarded_client_address_is_counted(settings, alice: User) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    api = APIClient()
    for index in range(settings.ARENA_LOGIN_FAILURES_PER_ADDRESS):
        api.post(
            "/api/auth/token/",
            {"username": f"nobody{index}", "password": "wrong"},
            format="json",
            REMOTE_ADDR="10.9.9.9",
            HTTP_X_FORWARDED_FOR=f"spoofed, 192.0.2.{index % 2}",
        )
    # Two client addresses behind the same proxy: neither has reached the per-address limit.
    right = api.post(
        "/api/auth/token/",
        {"username": "alice", "password": PASSWORD},
        format="json",
        REMOTE_ADDR="10.9.9.9",
        HTTP_X_FORWARDED_FOR="192.0.2.0",
    )
    assert right.status_code == 200
    # Without the trusted proxy every attempt came from the proxy's own address.
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 0}
    for index in range(settings.ARENA_LOGIN_FAILURES_PER_ADDRESS):
        _token(api, "wrong", username=f"x{index}", address="10.8.8.8")
    assert _token(api, PASSWORD, address="10.8.8.8").status_code == 429
