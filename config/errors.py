"""API errors are always JSON with a message naming the problem, never an HTML 500 page."""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from arena.actions import RequestError
from arena.errors import BadRequest

log = logging.getLogger(__name__)


def json_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DjangoValidationError):
        return Response({"detail": "; ".join(exc.messages)}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RequestError):
        # The domain's refusals name the problem; every API view answers them as a 400.
        exc = BadRequest(str(exc))
    response = exception_handler(exc, context)
    if response is None:
        log.exception("unhandled error in %s", context.get("view"))
        return Response(
            {"detail": "internal error; the request was not applied"},
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    return response
