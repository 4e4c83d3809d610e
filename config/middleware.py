"""Refusals of a whole request before any view sees it."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.request import QueryDict

_FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")
NUL_MESSAGE = "text may not contain the NUL character (\\u0000)"


def _holds_nul(values: QueryDict) -> bool:
    return any("\x00" in key or any("\x00" in str(value) for value in values.getlist(key)) for key in values)


class RefuseNulCharacters:
    """A query string or a page's form holding a NUL character answers 400: PostgreSQL stores no NUL in
    text, so such a value could only fail deeper down (a search, the lobby's guest names). API bodies are
    the API's own: DRF parses them, and config.errors maps PostgreSQL's refusal to the same 400."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        api = request.path.startswith("/api/")
        nul = _holds_nul(request.GET) or (
            not api and request.method == "POST" and request.content_type in _FORMS and _holds_nul(request.POST)
        )
        if nul:
            if api:
                return JsonResponse({"detail": NUL_MESSAGE}, status=400)
            return HttpResponse(NUL_MESSAGE, status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
