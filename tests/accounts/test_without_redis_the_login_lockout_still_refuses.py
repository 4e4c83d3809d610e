"""The login lockout never fails open: while Redis (which counts the wrong passwords) is away, every password
login, at the token endpoint and on the web login page, answers 503 with Retry-After: no wrong password
gets through, and neither does the right password of a locked account (nor any other, since whether it
is locked cannot be known). The API's throttles refuse the same way. Once Redis is back, logins are
answered as usual.

The Redis is the test's own redis-server (on a port of its own), the one the server `make run` starts
points at: the machine's shared Redis is never stopped.
"""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from arena.models import Player
from tests.served import Answer, call, free_port, make_run_server, wait_for_the_servers_sessions_to_end
from tests.support import PrivateRedis, Workers

pytestmark = pytest.mark.system

PASSWORD = "a-long-passphrase"
LIMIT = 3


class WebLogin:
    """The web login form, as a browser fills it: its CSRF cookie and token read from the page once."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        with self.opener.open(f"{base}/login/", timeout=60) as page:
            found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.read().decode())
        assert found, "the login page has no CSRF token"
        self.csrf = found[1]

    def signed_in(self) -> bool:
        return any(cookie.name == "sessionid" for cookie in self.cookies)

    def post(self, username: str, password: str) -> Answer:
        form = urllib.parse.urlencode({"username": username, "password": password, "csrfmiddlewaretoken": self.csrf})
        request = urllib.request.Request(
            f"{self.base}/login/", data=form.encode(), headers={"Referer": f"{self.base}/login/"}, method="POST"
        )
        try:
            with self.opener.open(request, timeout=60) as answer:
                return Answer(int(answer.status), dict(answer.headers.items()), answer.read())
        except urllib.error.HTTPError as refused:
            return Answer(int(refused.code), {k.lower(): v for k, v in refused.headers.items()}, refused.read())


def _served_hash(password: str) -> str:
    """The password as the server stores it (its hasher: this run hashes with a fast one the server lacks)."""
    hasher = PBKDF2PasswordHasher()
    return hasher.encode(password, hasher.salt())


def _token(base: str, username: str, password: str) -> Answer:
    return call(base, "/api/auth/token/", method="POST", body={"username": username, "password": password})


def _refused_for_the_outage(answer: Answer) -> bool:
    return answer.status == 503 and int(answer.headers.get("retry-after", "0")) > 0


def test_while_redis_is_away_no_password_login_gets_in_and_afterwards_logins_work(
    _real_services: str, transactional_db: None
) -> None:
    User.objects.create(username="carol", password=_served_hash(PASSWORD))
    dave = User.objects.create(username="dave", password=_served_hash(PASSWORD))
    token = Token.objects.create(user=dave).key
    bots = list(Player.objects.filter(kind=Player.Kind.BOT).order_by("id").values_list("id", flat=True)[:2])
    redis_server = PrivateRedis()
    redis_server.port = free_port()
    redis_server.url = f"redis://127.0.0.1:{redis_server.port}/0"
    redis_server.start()
    environment = Workers(_real_services).environment(
        LOG_LEVEL="ERROR",
        REDIS_URL=redis_server.url,
        ARENA_DB_POOL_MAX_SIZE="2",
        ARENA_LOGIN_FAILURES_PER_ACCOUNT=str(LIMIT),
        ARENA_REDIS_CONNECT_TIMEOUT="1",
        ARENA_REDIS_TIMEOUT="2",
    )
    try:
        with make_run_server(environment) as base:
            web = WebLogin(base)
            # Redis up: carol's account is locked after LIMIT wrong passwords, the right one refused too.
            assert [_token(base, "carol", "wrong").status for _ in range(LIMIT)] == [400] * LIMIT
            assert _token(base, "carol", PASSWORD).status == 429

            redis_server.stop()
            answers = {
                "carol, a wrong password": _token(base, "carol", "wrong"),
                "carol, her right password (locked)": _token(base, "carol", PASSWORD),
                "dave, his right password": _token(base, "dave", PASSWORD),
                "the web login, carol's right password": web.post("carol", PASSWORD),
                "the web login, a wrong password": web.post("dave", "wrong"),
                "a throttled API call": call(
                    base,
                    "/api/matches/",
                    method="POST",
                    body={"game": "part-du-chef", "kind": "friendly", "players": bots},
                    headers={"Authorization": f"Token {token}"},
                ),
            }
            assert all(_refused_for_the_outage(answer) for answer in answers.values()), {
                what: (answer.status, answer.body[:200]) for what, answer in answers.items()
            }
            assert answers["carol, her right password (locked)"].json() == {
                "detail": "the cache and task broker (Redis) are unavailable for a moment; nothing was applied: "
                "retry after 5 seconds",
                "code": "redis_unavailable",
            }
            assert b"token" not in answers["dave, his right password"].body

            # Back (an empty Redis, as one without persistence restarts): logins are answered as usual.
            redis_server.start()
            assert _token(base, "dave", "wrong").status == 400
            signed_in = _token(base, "dave", PASSWORD)
            assert signed_in.status == 200 and "token" in signed_in.json(), signed_in.body  # type: ignore[operator]
            assert web.post("dave", "wrong").status == 200 and not web.signed_in()  # the form again, with its error
            assert web.post("dave", PASSWORD).status == 200 and web.signed_in()  # redirected to the home page
    finally:
        redis_server.stop()
        wait_for_the_servers_sessions_to_end()
