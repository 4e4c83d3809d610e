"""Failed passwords per account and per client address, and sign-ups per address, counted in the cache.

Accounts are keyed on the skeleton of the typed name (`account_key`): `" bob"`, `"bob\\t"`, `ｂｏｂ` are `bob`.

Fixed windows: the first event opens a window of N seconds; while its count is at the limit every
attempt is refused (429 with Retry-After), a correct password included, until the window ends.
"""

from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.core.cache import cache

from common.skeleton import skeleton


def _key(kind: str, subject: str) -> str:
    return f"throttle:{kind}:{hashlib.sha256(subject.encode()).hexdigest()[:32]}"


def _wait(kind: str, subject: str, limit: int) -> int | None:
    key = _key(kind, subject)
    started = cache.get(f"{key}:start")
    if started is None or int(cache.get(key) or 0) < limit:
        return None
    return max(1, math.ceil(float(started) + _window(kind) - time.time()))


def _count(kind: str, subject: str) -> None:
    key = _key(kind, subject)
    window = _window(kind)
    if cache.add(f"{key}:start", time.time(), window):
        cache.set(key, 0, window)
    try:
        cache.incr(key)
    except ValueError:  # the window ended between the two calls: open a new one
        cache.set(key, 1, window)


def _window(kind: str) -> int:
    return int(settings.ARENA_SIGNUP_WINDOW_SECONDS if kind == "signup" else settings.ARENA_LOGIN_WINDOW_SECONDS)


def account_key(username: str) -> str:
    """The lockout's key of a typed name: its skeleton (surrounding spaces, tabs and no-break spaces
    dropped, NFKC, case folded, look-alike letters mapped), the same for every spelling of one account."""
    return skeleton(username)


def login_wait(username: str, address: str | None) -> int | None:
    """Seconds until a login may be tried again for this account or from this address; None: now.

    `address` None: a check made outside a request (a shell), counted per account only.
    """
    waits = [_wait("login-account", account_key(username), int(settings.ARENA_LOGIN_FAILURES_PER_ACCOUNT))]
    if address is not None:
        waits.append(_wait("login-address", address, int(settings.ARENA_LOGIN_FAILURES_PER_ADDRESS)))
    found = [wait for wait in waits if wait is not None]
    return max(found) if found else None


def login_failed(username: str, address: str | None) -> None:
    _count("login-account", account_key(username))
    if address is not None:
        _count("login-address", address)


def signup_wait(address: str) -> int | None:
    return _wait("signup", address, int(settings.ARENA_SIGNUPS_PER_ADDRESS))


def signed_up(address: str) -> None:
    _count("signup", address)


def wait_message(seconds: int) -> str:
    return f"too many attempts; try again in {seconds} seconds"
