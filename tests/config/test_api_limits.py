"""A client's mistake never answers 5xx: bad ids 404, deep JSON 400, a body over the limit 413."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from arena.models import Match
from common.limits import json_depth_exceeds


@pytest.fixture
def api(db: None) -> APIClient:
    client = APIClient()
    client.force_authenticate(User.objects.create_user("alice", password="a-long-passphrase"))
    return client


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/matches/abc/"),
        ("get", "/api/matches/abc/record/"),
        ("get", "/api/players/abc/"),
        ("get", "/api/tournaments/abc/"),
        ("get", "/api/tournaments/abc/matches/"),
        ("post", "/api/tournaments/abc/entries/"),
        ("get", "/api/bots/abc/"),
        ("get", "/api/tables/abc/"),
        ("post", "/api/tables/abc/accept/"),
        ("delete", "/api/arena/entries/abc/"),
        ("get", "/api/matches/abc/state/"),
        ("get", "/api/players/abc/ratings/part-du-chef/"),
        ("get", "/api/no-such-thing/"),
    ],
)
def test_a_non_numeric_id_or_unknown_path_answers_a_json_404(api: APIClient, method: str, path: str) -> None:
    response = getattr(api, method)(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert "detail" in response.json()


def test_an_unknown_numeric_id_answers_404(api: APIClient) -> None:
    assert api.get("/api/matches/999999/record/").status_code == 404
    assert api.get("/api/tournaments/999999/matches/").status_code == 404


def _nested(depth: int) -> str:
    return '{"game": ' + "[" * depth + "]" * depth + "}"


def test_json_nested_deeper_than_the_limit_answers_400_naming_the_limit(api: APIClient) -> None:
    response = api.post("/api/matches/", _nested(5000), content_type="application/json")
    assert response.status_code == 400
    assert f"nested deeper than {settings.ARENA_JSON_MAX_DEPTH} levels" in response.json()["detail"]
    assert not Match.objects.exists()


def test_json_within_the_depth_limit_is_read_as_usual(api: APIClient) -> None:
    response = api.post("/api/matches/", _nested(settings.ARENA_JSON_MAX_DEPTH - 1), content_type="application/json")
    assert response.status_code == 400
    assert "nested deeper" not in str(response.json())


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    assert not json_depth_exceeds(b'{"a": "' + b"[" * 100 + b'\\"{{{"}', 3)
    assert json_depth_exceeds(b"[[[[]]]]", 3)
    assert not json_depth_exceeds(b"[[[]]]", 3)


def test_a_body_over_the_limit_answers_413_naming_the_limit(api: APIClient) -> None:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = '{"game": "' + "x" * (limit + 10) + '"}'
    response = api.post("/api/matches/", body, content_type="application/json")
    assert response.status_code == 413
    assert f"the limit is {limit} bytes" in response.json()["detail"]


def test_a_body_over_the_limit_with_an_idempotency_key_answers_413_too(api: APIClient) -> None:
    body = '{"game": "' + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10) + '"}'
    response = api.post("/api/matches/", body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="big")
    assert response.status_code == 413
    assert "the limit is" in response.json()["detail"]
