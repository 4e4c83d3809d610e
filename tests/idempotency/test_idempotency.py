"""Unsafe requests with an Idempotency-Key: a retry answers the first answer and applies nothing more."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import close_old_connections, connection, transaction
from django.db.models.signals import post_save
from django.http import StreamingHttpResponse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from arena.models import Match
from idempotency.middleware import _replay, _store
from idempotency.models import IdempotencyKey
from idempotency.purge import purge_expired


def _signed_in(name: str) -> APIClient:
    user = User.objects.create_user(name, password="a-long-passphrase")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return api


def _match_body(bots: list[Any], seed: int = 7) -> dict[str, Any]:
    return {"game": "part-du-chef", "kind": "friendly", "players": [b.id for b in bots], "seed": seed}


def _second_connection() -> psycopg.Connection[Any]:
    db = settings.DATABASES["default"]
    return psycopg.connect(host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"], autocommit=True)


def _terminate(pid: int) -> None:
    with _second_connection() as other:
        # The timeout makes the call wait until the backend has really gone.
        other.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])


def test_the_same_key_and_body_answer_the_first_answer_and_create_one_match(make_bots) -> None:
    api, bots = _signed_in("alice"), make_bots(2)
    first = api.post("/api/matches/", _match_body(bots), format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = api.post("/api/matches/", _match_body(bots), format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 201
    assert again.content == first.content
    assert again["Idempotent-Replayed"] == "true"
    assert Match.objects.count() == 1


def test_the_same_key_with_another_body_answers_422_and_does_nothing(make_bots) -> None:
    api, bots = _signed_in("alice"), make_bots(2)
    assert api.post("/api/matches/", _match_body(bots), format="json", HTTP_IDEMPOTENCY_KEY="k").status_code == 201
    other = api.post("/api/matches/", _match_body(bots, seed=8), format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert other.status_code == 422
    assert "Idempotency-Key was used for another request" in other.json()["detail"]
    assert Match.objects.count() == 1


def test_a_method_the_path_does_not_take_answers_405_whatever_its_key(make_bots) -> None:
    api, bots = _signed_in("alice"), make_bots(2)
    assert api.post("/api/matches/", _match_body(bots), format="json", HTTP_IDEMPOTENCY_KEY="k").status_code == 201
    # The same key on a method no view takes: the 405 says why, not a clash of keys, and nothing is kept.
    assert api.put("/api/matches/", _match_body(bots), format="json", HTTP_IDEMPOTENCY_KEY="k").status_code == 405
    assert api.put("/api/matches/1/resign/", {}, format="json", HTTP_IDEMPOTENCY_KEY="k2").status_code == 405
    assert not IdempotencyKey.objects.filter(key="k2").exists()
    assert IdempotencyKey.objects.filter(key="k").count() == 1


def test_keys_belong_to_their_user(make_bots) -> None:
    bots = make_bots(2)
    for name in ("alice", "bob"):
        response = _signed_in(name).post("/api/matches/", _match_body(bots), format="json", HTTP_IDEMPOTENCY_KEY="k")
        assert response.status_code == 201
    assert Match.objects.count() == 2


def test_a_refused_request_keeps_no_answer_so_a_corrected_retry_is_applied(make_bots) -> None:
    api, bots = _signed_in("alice"), make_bots(2)
    bad = api.post("/api/matches/", {**_match_body(bots), "game": "chess"}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert bad.status_code == 400
    assert not IdempotencyKey.objects.exists()


def test_a_duplicate_still_in_flight_answers_409(make_bots) -> None:
    api, bots = _signed_in("alice"), make_bots(2)
    user_id = User.objects.get(username="alice").pk
    number = int.from_bytes(hashlib.sha256(f"user:{user_id}\nk".encode()).digest()[:8], "big", signed=True)
    with _second_connection() as other, other.transaction():
        # The first request, still running, holds the key's lock.
        other.execute("SELECT pg_advisory_xact_lock(%s)", [number])
        response = api.post("/api/matches/", _match_body(bots), format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert response.status_code == 409
    assert "still in flight" in response.json()["detail"]
    assert not Match.objects.exists()


def test_a_bad_key_header_is_refused_by_name(db: None) -> None:
    response = _signed_in("alice").post("/api/matches/", {}, format="json", HTTP_IDEMPOTENCY_KEY="x" * 300)
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["detail"]


@pytest.mark.django_db(transaction=True)
def test_a_connection_lost_right_after_the_commit_is_answered_again_by_the_retry(make_bots) -> None:
    api, bots = _signed_in("alice"), make_bots(2)

    def drop_connection_after_commit(sender: Any, instance: Match, created: bool, **_: Any) -> None:
        if created:
            transaction.on_commit(lambda: _terminate(connection.connection.info.backend_pid))

    post_save.connect(drop_connection_after_commit, sender=Match, dispatch_uid="drop-after-commit")
    try:
        first = api.post("/api/matches/", _match_body(bots), format="json", HTTP_IDEMPOTENCY_KEY="retry-me")
    finally:
        post_save.disconnect(sender=Match, dispatch_uid="drop-after-commit")
    assert first.status_code == 201, first.content
    close_old_connections()  # what the server does when the next request starts
    retry = api.post("/api/matches/", _match_body(bots), format="json", HTTP_IDEMPOTENCY_KEY="retry-me")
    assert retry.status_code == 201, retry.content
    assert Match.objects.count() == 1
    assert retry.json()["id"] == Match.objects.get().id
    assert first.json()["id"] == retry.json()["id"]


@pytest.mark.django_db(transaction=True)
def test_a_failed_commit_answers_503_outcome_unknown_and_the_retry_applies_it_once(make_bots) -> None:
    api, bots = _signed_in("alice"), make_bots(2)

    def drop_connection_before_commit(sender: Any, instance: IdempotencyKey, created: bool, **_: Any) -> None:
        # The key row is the last write of the request: the next thing the connection does is COMMIT.
        _terminate(connection.connection.info.backend_pid)

    post_save.connect(drop_connection_before_commit, sender=IdempotencyKey, dispatch_uid="drop-before-commit")
    try:
        first = api.post("/api/matches/", _match_body(bots), format="json", HTTP_IDEMPOTENCY_KEY="unknown")
    finally:
        post_save.disconnect(sender=IdempotencyKey, dispatch_uid="drop-before-commit")
    assert first.status_code == 503, first.content
    assert "outcome is unknown" in first.json()["detail"] and "same Idempotency-Key" in first.json()["detail"]
    close_old_connections()
    retry = api.post("/api/matches/", _match_body(bots), format="json", HTTP_IDEMPOTENCY_KEY="unknown")
    again = api.post("/api/matches/", _match_body(bots), format="json", HTTP_IDEMPOTENCY_KEY="unknown")
    assert retry.status_code == again.status_code == 201
    assert Match.objects.count() == 1
    assert retry.json()["id"] == again.json()["id"] == Match.objects.get().id


def test_keys_are_kept_a_day_then_purged(db: None) -> None:
    old = IdempotencyKey.objects.create(scope="user:1", key="old", fingerprint="f", status=201, body=b"{}")
    new = IdempotencyKey.objects.create(scope="user:1", key="new", fingerprint="f", status=201, body=b"{}")
    IdempotencyKey.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=25))
    IdempotencyKey.objects.filter(pk=new.pk).update(created_at=timezone.now() - timedelta(hours=23))
    assert purge_expired() == 1
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["new"]


@pytest.mark.django_db(transaction=True)
def test_a_failure_after_the_match_is_created_answers_500_and_really_applies_nothing(make_bots) -> None:
    api, bots = _signed_in("alice"), make_bots(2)

    def fail_when_the_answer_is_read(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        # The seats prefetch of the answer runs after create_match has returned (and, before every
        # unsafe request ran in one transaction, after it had committed).
        if 'FROM "arena_matchseat"' in sql and " IN (" in sql:
            raise RuntimeError("a fault while the answer is read")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(fail_when_the_answer_is_read):
        response = api.post("/api/matches/", _match_body(bots), format="json", HTTP_IDEMPOTENCY_KEY="late")
    assert response.status_code == 500
    assert response.json()["detail"] == "internal error; the request was not applied"
    assert not Match.objects.exists() and not IdempotencyKey.objects.exists()
    retry = api.post("/api/matches/", _match_body(bots), format="json", HTTP_IDEMPOTENCY_KEY="late")
    assert retry.status_code == 201 and Match.objects.count() == 1


def test_a_streamed_answer_is_kept_whole_and_answered_again(db: None) -> None:
    streamed = StreamingHttpResponse(iter([b'{"part": ', b"1}"]), status=201, content_type="application/json")
    answered = _store("user:1", "stream", "f", streamed)
    assert answered.content == b'{"part": 1}' and answered.status_code == 201
    again = _replay(IdempotencyKey.objects.get(key="stream"))
    assert (again.status_code, again.content, again["Content-Type"]) == (201, b'{"part": 1}', "application/json")
