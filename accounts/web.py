"""The web login with the token endpoint's throttle on wrong passwords."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse

from accounts import throttles
from common.clients import client_address


def throttled_page(seconds: int) -> HttpResponse:
    response = HttpResponse(throttles.wait_message(seconds), status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(seconds)
    return response


class ThrottledLoginView(auth_views.LoginView):
    template_name = "web/login.html"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = throttles.login_wait(str(request.POST.get("username", "")), client_address(request))
        if wait is not None:
            return throttled_page(wait)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: Any) -> HttpResponse:
        throttles.login_failed(str(self.request.POST.get("username", "")), client_address(self.request))
        return super().form_invalid(form)
