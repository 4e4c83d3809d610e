"""The web login and the admin's login with the token endpoint's lockout: a locked-out account or
address answers 429 with Retry-After on every login page (the wrong passwords themselves are counted
by accounts.backends, under every login path alike)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse

from accounts import throttles
from common.clients import client_address


def throttled_page(seconds: int) -> HttpResponse:
    response = HttpResponse(throttles.wait_message(seconds), status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(seconds)
    return response


def _locked_out(request: HttpRequest) -> HttpResponse | None:
    if request.method != "POST":
        return None
    wait = throttles.login_wait(str(request.POST.get("username", "")), client_address(request))
    return throttled_page(wait) if wait is not None else None


class ThrottledLoginView(auth_views.LoginView):
    template_name = "web/login.html"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return _locked_out(request) or super().post(request, *args, **kwargs)


def admin_login(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
    """/admin/login/: the admin site's own login behind the same 429."""
    return _locked_out(request) or admin.site.login(request, extra_context)
