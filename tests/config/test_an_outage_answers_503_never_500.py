"""Every way an outage of PostgreSQL or Redis reaches a response answers 503 with Retry-After, never 500: the
API's views (DRF's exception handler), the pages' views (the outage middleware) and a middleware's error
(Django's 500 handler, while it handles the error); JSON with a code under /api/, a page elsewhere. Other
errors keep their answers. (tests/config/test_a_database_outage_answers_503_and_loses_nothing.py and
tests/accounts/test_without_redis_the_login_lockout_still_refuses.py show it through the served stack.)"""

from __future__ import annotations

from typing import Any

import psycopg_pool
import pytest
import redis
from django.db import InterfaceError, OperationalError
from django.test import RequestFactory
from django.utils import translation
from kombu.exceptions import OperationalError as BrokerError

from config.errors import internal_error, json_exception_handler
from config.outages import AnswerOutagesWith503, outage_code

pytestmark = pytest.mark.unit


def _wrapped_pool_timeout() -> OperationalError:
    """As Django raises it: its OperationalError, caused by the pool's PoolTimeout."""
    try:
        try:
            raise psycopg_pool.PoolTimeout("couldn't get a connection after 5.00 sec")
        except psycopg_pool.PoolTimeout as exc:
            raise OperationalError(str(exc)) from exc
    except OperationalError as wrapped:
        return wrapped


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (_wrapped_pool_timeout(), "database_unavailable"),
        (OperationalError("FATAL:  sorry, too many clients already"), "database_unavailable"),
        (InterfaceError("connection already closed"), "database_unavailable"),
        (redis.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused."), "redis_unavailable"),
        (redis.TimeoutError("Timeout reading from socket"), "redis_unavailable"),
        (BrokerError("Error 111 connecting to 127.0.0.1:6379"), "redis_unavailable"),
        (ValueError("a bug"), None),
    ],
)
def test_each_outage_is_named_and_nothing_else_is(error: Exception, code: str | None) -> None:
    assert outage_code(error) == code


def test_the_apis_views_answer_503_json_with_retry_after(settings: Any) -> None:
    settings.ARENA_OUTAGE_RETRY_AFTER = 7
    response = json_exception_handler(_wrapped_pool_timeout(), {"view": None})
    assert response is not None and response.status_code == 503
    assert response["Retry-After"] == "7"
    assert response.data == {
        "detail": "the database is unavailable for a moment; nothing was applied: retry after 7 seconds",
        "code": "database_unavailable",
    }


def test_a_pages_view_answers_the_503_page_in_the_visitors_language() -> None:
    request = RequestFactory().get("/leaderboard/part-du-chef/")
    request.LANGUAGE_CODE = "nb"  # set by LocaleMiddleware
    middleware = AnswerOutagesWith503(lambda request: None)  # type: ignore[arg-type,return-value]
    response = middleware.process_exception(request, redis.ConnectionError("refused"))
    assert response is not None and response.status_code == 503 and int(response["Retry-After"]) > 0
    assert "Kjøkkenet er stengt et øyeblikk" in response.content.decode()
    assert middleware.process_exception(request, ValueError("a bug")) is None


@pytest.mark.parametrize(("path", "kind"), [("/api/matches/", "application/json"), ("/", "text/html")])
def test_an_outage_in_a_middleware_answers_503_through_the_500_handler(path: str, kind: str) -> None:
    request = RequestFactory().post(path)
    try:
        raise OperationalError("connection to server at 127.0.0.1, port 5432 failed: Connection refused")
    except OperationalError:
        response = internal_error(request)  # as Django calls it: while handling the error
    assert response.status_code == 503 and response["Content-Type"].startswith(kind)
    assert int(response["Retry-After"]) > 0
    try:
        raise ValueError("a bug")
    except ValueError:
        assert internal_error(request).status_code == 500


def test_a_bug_on_a_page_answers_the_500_page_in_the_visitors_language() -> None:
    request = RequestFactory().get("/leaderboard/part-du-chef/")
    with translation.override("fr"):
        try:
            raise ValueError("a bug")
        except ValueError:
            response = internal_error(request)
    page = response.content.decode()
    assert response.status_code == 500 and response["Content-Type"].startswith("text/html")
    assert "Un problème est survenu en cuisine" in page and '<html lang="fr">' in page
