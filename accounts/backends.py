"""Every password check of every login path (token endpoint, web login, the admin's login) under one lockout.

Django calls `authenticate()` for each of them; this backend refuses while the account or the client
address is locked out and counts each wrong password, so no login form can give fresh guesses.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from accounts import throttles
from common.clients import client_address


def _address(request: Any) -> str | None:
    """The client address of a Django or DRF request; None for a check made outside a request (a shell)."""
    if request is None:
        return None
    django_request = getattr(request, "_request", request)
    return client_address(django_request) if isinstance(django_request, HttpRequest) else None


class ThrottledModelBackend(ModelBackend):
    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if username is None or password is None:
            return None  # not a password login (or another backend's): nothing to count
        address = _address(request)
        wait = throttles.login_wait(username, address)
        if wait is not None:
            # PermissionDenied stops Django trying any other backend: the right password is refused too.
            raise PermissionDenied(throttles.wait_message(wait))
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            throttles.login_failed(username, address)
        return user
