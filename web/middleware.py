"""Norwegian asked for as "no" (or Nynorsk, "nn") is served in Bokmål, the Norwegian the site has.

Browsers and phones often send `Accept-Language: no`; Django knows only the "nb" the site lists and
would fall back to English. This runs before LocaleMiddleware and names "nb" instead."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

_NORWEGIAN = re.compile(r"(?<![\w-])(?:no|nn)(?:-[A-Za-z]{2})?(?=\s*(?:;|,|$))", re.IGNORECASE)


class NorwegianMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        header = request.META.get("HTTP_ACCEPT_LANGUAGE")
        if header:
            request.META["HTTP_ACCEPT_LANGUAGE"] = _NORWEGIAN.sub("nb", header)
        return self.get_response(request)
