"""Every API operation that creates or changes something (POST, PATCH) has a throttle scope with a rate,
except sign-up and the token endpoint, which have throttles of their own (accounts/throttles.py)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.generators import EndpointEnumerator
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory
from rest_framework.throttling import ScopedRateThrottle

OWN_THROTTLES = {"/api/accounts/", "/api/auth/token/"}


def _throttled_view(path: str, method: str, callback: Any) -> tuple[Any, list[Any]]:
    """The view as DRF would set it up for this operation, and the throttles it applies."""
    view = callback.cls(**getattr(callback, "initkwargs", {}))
    actions = getattr(callback, "actions", None)
    if actions is not None:
        view.action = actions.get(method.lower())
        view.action_map = actions
    view.request = Request(getattr(APIRequestFactory(), method.lower())(path))
    view.kwargs = {}
    view.format_kwarg = None
    return view, list(view.get_throttles())


def test_every_unsafe_operation_has_a_rated_throttle_scope() -> None:
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    unthrottled = []
    checked = 0
    for path, _, method, callback in EndpointEnumerator().get_api_endpoints():
        if method not in ("POST", "PATCH", "PUT") or path in OWN_THROTTLES:
            continue
        checked += 1
        view, throttles = _throttled_view(path, method, callback)
        scoped = [throttle for throttle in throttles if isinstance(throttle, ScopedRateThrottle)]
        if not scoped or getattr(view, "throttle_scope", None) not in rates:
            unthrottled.append(f"{method} {path}")
    assert checked >= 15
    assert unthrottled == []


def test_the_new_scopes_have_rates() -> None:
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    assert {"table", "resign", "bot-edit"} <= set(rates)
