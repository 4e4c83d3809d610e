"""Bad input answers 4xx, as JSON under /api/, wherever it is refused: a non-numeric cursor position, a NUL
character in a query string or a page's form (the leaderboard search, the lobby's guest field), too many form
fields, a body over the limit read by a middleware; and the schema says what the answers hold."""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, RequestFactory
from django.urls import get_resolver
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice")


def _cursor(raw: str) -> str:
    return base64.b64encode(raw.encode()).decode()


@pytest.mark.parametrize("position", ["abc", "1.5", "-3", "1e9", "\u0661", "\u00b2"])
def test_a_cursor_whose_position_is_not_a_match_id_answers_404_json(db: None, position: str) -> None:
    answer = APIClient().get("/api/matches/", {"cursor": _cursor(urlencode({"p": position}))})
    assert answer.status_code == 404, answer.content
    assert answer["Content-Type"] == "application/json" and answer.json()["detail"] == "Invalid cursor"


def test_a_cursor_with_a_numeric_position_still_pages(db: None) -> None:
    assert APIClient().get("/api/matches/", {"cursor": _cursor("p=100")}).status_code == 200


def test_a_nul_character_in_the_leaderboard_search_answers_400(db: None) -> None:
    page = Client().get("/leaderboard/part-du-chef/", {"q": "gr\x00eedy"})
    assert page.status_code == 400 and "NUL" in page.content.decode()
    assert Client().get("/leaderboard/part-du-chef/", {"q": "greedy"}).status_code == 200


def test_a_nul_character_in_the_lobby_guest_field_answers_400(alice: User) -> None:
    browser = Client()
    browser.force_login(alice)
    page = browser.post("/play/", {"open": "1", "guests": "greedy\x00, random"})
    assert page.status_code == 400 and "NUL" in page.content.decode()


def test_a_nul_character_in_an_api_query_answers_400_json(db: None) -> None:
    answer = APIClient().get("/api/players/", {"name": "a\x00b"})
    assert answer.status_code == 400 and "NUL" in answer.json()["detail"]


def test_too_many_form_fields_answer_400_json_under_the_api(alice: User) -> None:
    api = APIClient()
    api.force_authenticate(alice)
    fields = {f"f{index}": "x" for index in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)}
    answer = api.post("/api/tables/", urlencode(fields), content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 400, answer.content
    assert "too many fields" in answer.json()["detail"]
    keyed = api.post(
        "/api/tables/", urlencode(fields), content_type="application/x-www-form-urlencoded", HTTP_IDEMPOTENCY_KEY="k1"
    )
    assert keyed.status_code == 400 and "too many fields" in keyed.json()["detail"]


def test_too_many_form_fields_on_a_page_answer_400(db: None) -> None:
    fields = {f"f{index}": "x" for index in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)}
    page = Client().post("/login/", urlencode(fields), content_type="application/x-www-form-urlencoded")
    assert page.status_code == 400


def test_a_form_body_over_the_limit_read_by_a_middleware_answers_413_json(alice: User, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    api = APIClient()
    api.force_authenticate(alice)
    body = urlencode({"game": "part-du-chef", "guests": "x" * 5000})
    answer = api.post("/api/tables/", body, content_type="application/x-www-form-urlencoded", HTTP_IDEMPOTENCY_KEY="k2")
    assert answer.status_code == 413, answer.content
    assert "the limit is 1000 bytes" in answer.json()["detail"]


def test_the_schema_lets_an_arena_entry_have_no_current_match() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for name in ("ArenaEntryWait",):
        field = schema["components"]["schemas"][name]["properties"]["current_match"]
        assert field.get("nullable") is True, (name, field)


@pytest.mark.parametrize(("status", "arguments"), [(400, True), (403, True), (404, True), (500, False)])
def test_django_s_own_error_answers_are_json_under_the_api_and_pages_elsewhere(
    db: None, status: int, arguments: bool
) -> None:
    """The URLconf's handlers: what Django answers for errors raised outside DRF's views (a middleware)."""
    handler = get_resolver().resolve_error_handler(status)
    extra = (Exception("refused"),) if arguments else ()
    api = handler(RequestFactory().post("/api/tables/"), *extra)
    assert api.status_code == status and api["Content-Type"] == "application/json"
    assert json.loads(api.content)["detail"]
    page = handler(RequestFactory().get("/play/"), *extra)
    assert page.status_code == status and "application/json" not in page["Content-Type"]
