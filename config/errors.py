"""API errors are always JSON with a message naming the problem, never an HTML 500 page."""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation, TooManyFieldsSent
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import bad_request, page_not_found, permission_denied, server_error
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler, set_rollback

from arena.errors import ArenaError
from common.limits import too_big_message
from config.middleware import NUL_MESSAGE
from config.outages import answer_outage, outage_body, outage_code, outage_headers
from games.part_du_chef.errors import RulesError

log = logging.getLogger(__name__)

# Django's get_object_or_404 (DRF's too) says "No SubmittedBot matches the given query.": the class name
# is ours, not the readers'. A 404 for a model says what people call the thing instead, in the API here
# (English, as every API message) and on the pages through web's `missing_thing` filter (translated).
DJANGO_NOT_FOUND = re.compile(r"^No (\w+) matches the given query\.$")
PEOPLES_WORDS = {
    "SubmittedBot": "no bot with this id",
    "BotVersion": "no version of this bot with this number",
    "BotSeat": "no bot seat with this id",
    "BotComparison": "no bot comparison with this id",
    "ComparisonDeal": "no comparison deal with this id",
    "Player": "no player with this id",
    "Match": "no match with this id",
    "MatchSeat": "no seat with this number in this match",
    "ArenaEntry": "no arena entry with this id",
    "Tournament": "no tournament with this id",
    "TournamentEntry": "no entry with this id in this tournament",
    "TournamentGame": "no game with this id in this tournament",
    "LiveGame": "no table with this id",
    "FriendlyTable": "no table with this id",
    "TableSeat": "no seat with this number at this table",
    "ChatMessage": "no chat message with this id",
    "ChatReport": "no report with this id",
    "Rating": "no rating for this player in this game",
    "RatingChange": "no rating change with this id",
    "RatingBucket": "no rating range like this",
    "IdempotencyKey": "no request with this Idempotency-Key",
    "User": "no account with this id",
    "Token": "no token like this",
}


def missing_model(exc: BaseException | None) -> str | None:
    """The model a Django 404 did not find (its class name), or None for any other 404."""
    found = DJANGO_NOT_FOUND.match(str(exc)) if isinstance(exc, Http404) else None
    return found[1] if found else None


def not_found_detail(exc: BaseException | None) -> str | None:
    """A model's 404 in people's words ("no bot with this id"), or None for any other 404."""
    model = missing_model(exc)
    if model is None:
        return None
    return PEOPLES_WORDS.get(model, "nothing was found with this id")


def _refusal(message: str, code: str, params: Mapping[str, str | int]) -> dict[str, Any]:
    return {"detail": message, "code": code, "params": dict(params)}


def domain_error_response(exc: Exception) -> Response | None:
    """The one mapping of the domain's refusals to HTTP: each ArenaError subclass carries its status.

    An action of the rules package that is malformed (InvalidAction) or illegal in the position
    (IllegalAction) is a 400 like any bad input, with the rules' message. Beside the message, each
    answers its stable `code` and the `params` it names, for clients that tell it in their own words.
    """
    if isinstance(exc, ArenaError):
        return Response(_refusal(str(exc), exc.code, exc.params), status=exc.status_code)
    if isinstance(exc, RulesError):
        return Response(_refusal(str(exc), exc.code, exc.params), status=status.HTTP_400_BAD_REQUEST)
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
    if (detail := not_found_detail(exc)) is not None:
        return Response({"detail": detail}, status=status.HTTP_404_NOT_FOUND)
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
        detail = not_found_detail(exception) or f"no such resource: {request.path}"
        return JsonResponse({"detail": detail}, status=404)
    # The page says what is missing in the reader's language (web's `missing_thing` filter reads the
    # exception's message, which Django gives the template).
    return page_not_found(request, exception or Exception("not found"))
