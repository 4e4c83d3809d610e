"""An outage of PostgreSQL or Redis answers 503 with Retry-After, never 500: the service is away, not broken.

What counts: the database refused or lost a connection, or none could be had from the pool in time
(Django wraps psycopg's errors and the pool's `PoolTimeout` in its OperationalError and InterfaceError;
a statement cut by `statement_timeout` is one too), or Redis (the cache that holds the throttles and
the login lockout, or the broker) did not answer. Nothing of the request was applied: it ran in one
transaction, rolled back with the error (a commit that fails half-way is the Idempotency-Key
middleware's own 503, "outcome unknown").

Three places see these errors, and each answers the same:
- the API's views: DRF's exception handler (`config.errors.json_exception_handler`);
- the pages' views: `AnswerOutagesWith503.process_exception`, first in MIDDLEWARE;
- a middleware (the session, the idempotency key's transaction): Django turns the error into its
  500 handler, `config.errors.internal_error`, which looks at the error being handled.

Under /api/ the body is JSON, `{"detail": ..., "code": "database_unavailable" | "redis_unavailable"}`;
elsewhere a short page in the visitor's language.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import psycopg
import psycopg_pool
import redis
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from kombu.exceptions import OperationalError as BrokerError

log = logging.getLogger(__name__)

DATABASE_ERRORS: tuple[type[BaseException], ...] = (
    OperationalError,
    InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
    psycopg_pool.PoolTimeout,
)
REDIS_ERRORS: tuple[type[BaseException], ...] = (redis.RedisError, BrokerError)

_MESSAGES = {
    "database_unavailable": "the database is unavailable for a moment; nothing was applied: "
    "retry after {seconds} seconds",
    "redis_unavailable": "the cache and task broker (Redis) are unavailable for a moment; nothing was applied: "
    "retry after {seconds} seconds",
}


def outage_code(exc: BaseException | None) -> str | None:
    """`database_unavailable` or `redis_unavailable` when `exc` is an outage (or was caused by one), else None."""
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, DATABASE_ERRORS):
            return "database_unavailable"
        if isinstance(exc, REDIS_ERRORS):
            return "redis_unavailable"
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


def retry_after() -> int:
    return int(settings.ARENA_OUTAGE_RETRY_AFTER)


def outage_body(code: str) -> dict[str, str]:
    """The API's JSON body of a 503: the message and a code a client can act on."""
    return {"detail": _MESSAGES[code].format(seconds=retry_after()), "code": code}


def outage_headers() -> dict[str, str]:
    return {"Retry-After": str(retry_after()), "Cache-Control": "no-store"}


def outage_response(request: HttpRequest, code: str) -> HttpResponse:
    """503 with Retry-After: JSON under /api/, the short page elsewhere."""
    seconds = retry_after()
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse(outage_body(code), status=503)
    else:
        # Rendered without the request's context: the session and the user live in the database.
        language = getattr(request, "LANGUAGE_CODE", None) or translation.get_language()
        with translation.override(language):
            page = render_to_string("503.html", {"seconds": seconds})
        response = HttpResponse(page, status=503, content_type="text/html; charset=utf-8")
    for name, value in outage_headers().items():
        response[name] = value
    return response


def answer_outage(request: HttpRequest, exc: BaseException | None) -> HttpResponse | None:
    code = outage_code(exc)
    if code is None:
        return None
    log.warning("%s %s answered 503 (%s): %s: %s", request.method, request.path, code, type(exc).__name__, exc)
    return outage_response(request, code)


class AnswerOutagesWith503:
    """A page's view that meets an outage answers the 503 page (the API's views answer through DRF)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return answer_outage(request, exception)
