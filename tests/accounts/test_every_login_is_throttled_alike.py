"""One lockout for every login: the token endpoint, /login/ and /admin/login/ count wrong passwords together,
on the account whatever spelling of its name is typed, and refuse even the right password meanwhile."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

PASSWORD = "a-long-passphrase"
SPELLINGS = [" bob", "bob ", "bob\t", "\tbob", "\u00a0bob", "bob\u00a0", "ｂｏｂ", "BOB", "Ｂｏｂ "]


@pytest.fixture(autouse=True)
def _fast_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password=PASSWORD, is_staff=True)


def _token(username: str, password: str, address: str = "10.0.0.1") -> object:
    return APIClient().post(
        "/api/auth/token/", {"username": username, "password": password}, format="json", REMOTE_ADDR=address
    )


def _admin(username: str, password: str, address: str = "10.0.0.1", browser: Client | None = None) -> object:
    return (browser or Client()).post(
        "/admin/login/?next=/admin/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_the_admin_login_is_locked_out_after_too_many_wrong_passwords(bob: User) -> None:
    for index in range(settings.ARENA_LOGIN_FAILURES_PER_ACCOUNT):
        assert _admin("bob", "wrong", address=f"10.0.1.{index}").status_code == 200  # the form again
    browser = Client()
    refused = _admin("bob", PASSWORD, address="10.0.2.1", browser=browser)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "_auth_user_id" not in browser.session
    assert _token("bob", PASSWORD, address="10.0.3.1").status_code == 429
    assert Client().post("/login/", {"username": "bob", "password": PASSWORD}).status_code == 429


def test_wrong_passwords_on_every_login_path_count_together(bob: User) -> None:
    paths = [
        lambda: _token("bob", "wrong"),
        lambda: _admin("bob", "wrong"),
        lambda: Client().post("/login/", {"username": "bob", "password": "wrong"}, REMOTE_ADDR="10.0.0.1"),
    ]
    for index in range(settings.ARENA_LOGIN_FAILURES_PER_ACCOUNT):
        assert paths[index % len(paths)]().status_code in (200, 400)
    assert _admin("bob", PASSWORD).status_code == 429


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_another_spelling_of_a_locked_account_gets_no_fresh_guesses(bob: User, spelling: str) -> None:
    for index in range(settings.ARENA_LOGIN_FAILURES_PER_ACCOUNT):
        _token("bob", "wrong", address=f"10.0.4.{index}")
    assert _token(spelling, PASSWORD, address="10.0.5.1").status_code == 429
    form = {"username": spelling, "password": PASSWORD}
    assert Client().post("/login/", form, REMOTE_ADDR="10.0.5.2").status_code == 429
    assert _admin(spelling, PASSWORD, address="10.0.5.3").status_code == 429


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_wrong_guesses_under_other_spellings_lock_the_account(bob: User, spelling: str) -> None:
    for index in range(settings.ARENA_LOGIN_FAILURES_PER_ACCOUNT):
        _token(spelling, "wrong", address=f"10.0.6.{index}")
    assert _token("bob", PASSWORD, address="10.0.7.1").status_code == 429


def test_the_right_password_still_logs_in_on_the_admin_below_the_limit(bob: User) -> None:
    for _ in range(settings.ARENA_LOGIN_FAILURES_PER_ACCOUNT - 1):
        _admin("bob", "wrong")
    browser = Client()
    answer = _admin("bob", PASSWORD, browser=browser)
    assert answer.status_code == 302 and browser.session["_auth_user_id"] == str(bob.pk)


def test_the_address_lockout_covers_the_admin_login(bob: User) -> None:
    for index in range(settings.ARENA_LOGIN_FAILURES_PER_ADDRESS):
        _token(f"nobody{index}", "wrong", address="10.0.8.1")
    assert _admin("bob", PASSWORD, address="10.0.8.1").status_code == 429
    assert _admin("bob", PASSWORD, address="10.0.8.2").status_code == 302
