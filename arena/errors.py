from __future__ import annotations

from rest_framework import status
from rest_framework.exceptions import APIException


class BadRequest(APIException):
    """400 whose body is {"detail": "<the message naming the problem>"}."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = "bad request"
    default_code = "bad_request"
