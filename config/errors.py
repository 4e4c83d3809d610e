"""API errors are always JSON with a message naming the problem, never an HTML 500 page."""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler, set_rollback

from arena.errors import ArenaError
from common.limits import too_big_message
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


def http_level_answer(exc: Exception) -> Response | None:
    """Client mistakes found while reading the request, before any view logic."""
    if isinstance(exc, RequestDataTooBig):
        return Response({"detail": too_big_message()}, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, RecursionError):
        return Response({"detail": "the request is nested too deeply to be read"}, status=status.HTTP_400_BAD_REQUEST)
    return None


def json_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    http = http_level_answer(exc)
    if http is not None:
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


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Unknown paths (a non-numeric id included) answer JSON 404 under /api/, the HTML page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": f"no such resource: {request.path}"}, status=404)
    return page_not_found(request, exception or Exception("not found"))
