"""API errors are always JSON with a message naming the problem, never an HTML 500 page."""

from __future__ import annotations

import logging
import sys
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation, TooManyFieldsSent
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import bad_request, page_not_found, permission_denied, server_error
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler, set_rollback

from arena.errors import ArenaError
from common.limits import too_big_message
from config.middleware import NUL_MESSAGE
from config.outages import answer_outage, outage_body, outage_code, outage_headers
from games.part_du_chef import IllegalAction, InvalidAction

log = logging.getLogger(__name__)


def domain_error_response(exc: Exception) -> Response | None:
    """The one mapping of the domain's refusals to HTTP: each ArenaError subclass carries its status.

    An action of the rules package that is malformed (InvalidAction) or illegal in the position
    (IllegalAction) is a 400 like any bad input, with the rules' message.
    """
    if isinstance(exc, ArenaError):
        return Response({"detail": str(exc)}, status=exc.status_code)
    if isinstance(exc, InvalidAction | IllegalAction):
        return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DjangoValidationError):
        return Response({"detail": "; ".join(exc.messages)}, status=status.HTTP_400_BAD_REQUEST)
    return None


def too_many_fields_message() -> str:
    return (
        f"the request has too many fields: the limit is {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS} "
        "(DATA_UPLOAD_MAX_NUMBER_FIELDS)"
    )


def client_mistake(exc: Exception) -> tuple[int, str] | None:
    """Client mistakes found while reading the request (status, message), wherever they are raised."""
    if isinstance(exc, RequestDataTooBig):
        return status.HTTP_413_REQUEST_ENTITY_TOO_LARGE, too_big_message()
    if isinstance(exc, TooManyFieldsSent):
        return status.HTTP_400_BAD_REQUEST, too_many_fields_message()
    if isinstance(exc, SuspiciousOperation):
        return status.HTTP_400_BAD_REQUEST, f"the request is malformed: {exc}"
    if isinstance(exc, RecursionError):
        return status.HTTP_400_BAD_REQUEST, "the request is nested too deeply to be read"
    if isinstance(exc, DataError) and "NUL" in str(exc):
        # PostgreSQL stores no NUL character in text: a value holding one can match or be nothing.
        return status.HTTP_400_BAD_REQUEST, NUL_MESSAGE
    return None


def http_level_answer(exc: Exception) -> Response | None:
    """Client mistakes found while reading the request, before any view logic."""
    mistake = client_mistake(exc)
    if mistake is None:
        return None
    code, message = mistake
    return Response({"detail": message}, status=code)


def json_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    outage = outage_code(exc)
    if outage is not None:
        # PostgreSQL or Redis away (the login lockout and the throttles included): refused, not applied.
        log.warning("%s answered 503 (%s): %s: %s", context.get("view"), outage, type(exc).__name__, exc)
        set_rollback()
        return Response(outage_body(outage), status=status.HTTP_503_SERVICE_UNAVAILABLE, headers=outage_headers())
    http = http_level_answer(exc)
    if http is not None:
        set_rollback()  # a refused value may have broken the transaction (PostgreSQL's NUL refusal)
        return http
    domain = domain_error_response(exc)
    if domain is not None:
        set_rollback()  # as DRF does for its own errors: nothing of a refused request is kept
        return domain
    response = exception_handler(exc, context)
    if response is None:
        log.exception("unhandled error in %s", context.get("view"))
        return Response(
            {"detail": "internal error; the request was not applied"},
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    return response


def _api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def bad_input(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django's own 400s (raised outside DRF: a middleware reading a too large or too many-fielded
    body, a malformed header): JSON naming the problem under /api/, the HTML page elsewhere."""
    mistake = client_mistake(exception) if exception is not None else None
    code, message = mistake or (400, "the request is malformed")
    if _api(request):
        return JsonResponse({"detail": message}, status=code)
    response = bad_request(request, exception or Exception(message))
    response.status_code = code
    return response


def forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _api(request):
        detail = str(exception) if exception is not None and str(exception) else "not allowed"
        return JsonResponse({"detail": detail}, status=403)
    return permission_denied(request, exception or Exception("forbidden"))


def internal_error(request: HttpRequest) -> HttpResponse:
    """An error raised outside DRF's views (in a middleware): still JSON under /api/. An outage met there
    (the session read, the idempotency key's transaction) answers 503 (config/outages.py): Django calls
    this handler while it handles the error, so the error is the one being handled."""
    outage = answer_outage(request, sys.exc_info()[1])
    if outage is not None:
        return outage
    if _api(request):
        return JsonResponse({"detail": "internal error; the request was not applied"}, status=500)
    return server_error(request)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Unknown paths (a non-numeric id included) answer JSON 404 under /api/, the HTML page elsewhere."""
    if _api(request):
        return JsonResponse({"detail": f"no such resource: {request.path}"}, status=404)
    return page_not_found(request, exception or Exception("not found"))
