"""The address the login and sign-up throttles count is the connection's; X-Forwarded-For counts only behind
the ARENA_NUM_PROXIES trusted proxies configured (the hop the nearest of them appended), under the test
client and under the server `make run` starts (gunicorn with the project's uvicorn worker class)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from tests.support import ROOT, Workers, wait_until

# Builds, sandboxed bots or a server of their own: processes beside the test run.
pytestmark = pytest.mark.system

PASSWORD = "a-long-passphrase"


@pytest.fixture(autouse=True)
def _fast_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _sign_up(api: APIClient, name: str, forwarded: str, remote: str = "10.1.0.1") -> int:
    body = {"username": name, "password": PASSWORD}
    return api.post(
        "/api/accounts/", body, format="json", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded
    ).status_code


def test_without_trusted_proxies_x_forwarded_for_is_ignored(db: None) -> None:
    api = APIClient()
    limit = settings.ARENA_SIGNUPS_PER_ADDRESS
    assert [_sign_up(api, f"p{i}", f"203.0.113.{i}") for i in range(limit)] == [201] * limit
    assert _sign_up(api, "one-more", "203.0.113.99") == 429


def test_behind_one_proxy_only_the_hop_it_appended_counts(db: None, settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    api = APIClient()
    limit = settings.ARENA_SIGNUPS_PER_ADDRESS
    # The client writes what it likes on the left; the proxy appends the address it saw.
    spoofed = [_sign_up(api, f"p{i}", f"198.51.100.{i}, 192.0.2.7", remote="127.0.0.1") for i in range(limit)]
    assert spoofed == [201] * limit
    assert _sign_up(api, "one-more", "198.51.100.200, 192.0.2.7", remote="127.0.0.1") == 429
    # Another client behind the same proxy is counted apart.
    assert _sign_up(api, "another", "192.0.2.8", remote="127.0.0.1") == 201


def test_behind_one_proxy_the_login_lockout_counts_the_appended_hop(db: None, settings: Any) -> None:
    from django.contrib.auth.models import User

    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    User.objects.create_user("carol", password=PASSWORD)
    browser = Client()
    for index in range(settings.ARENA_LOGIN_FAILURES_PER_ADDRESS):
        form = {"username": f"nobody{index}", "password": "wrong"}
        browser.post("/login/", form, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=f"10.9.{index}.1, 192.0.2.9")
    form = {"username": "carol", "password": PASSWORD}
    refused = browser.post("/login/", form, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="10.10.0.1, 192.0.2.9")
    assert refused.status_code == 429


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def make_run_server(transactional_db: None, _real_services: str) -> Iterator[str]:
    """The API served as scripts/run.sh serves it: gunicorn, the project's uvicorn worker class, on loopback."""
    port = _free_port()
    log = ROOT / "var" / f"test-gunicorn-{os.getpid()}.log"
    log.parent.mkdir(exist_ok=True)
    environment = Workers(_real_services).environment(LOG_LEVEL="ERROR")
    environment.pop("FORWARDED_ALLOW_IPS", None)
    with log.open("wb") as handle:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.asgi:application",
                "-k",
                "config.uvicorn_worker.ArenaUvicornWorker",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "1",
            ],
            cwd=ROOT,
            env=environment,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"

    def serving() -> bool:
        try:
            with urllib.request.urlopen(f"{base}/api/games/", timeout=5):
                return True
        except (urllib.error.URLError, OSError):
            return server.poll() is not None

    try:
        wait_until(serving, 120, "gunicorn to serve", on_fail=log.read_text(errors="replace"))
        assert server.poll() is None, log.read_text(errors="replace")
        yield base
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        log.unlink(missing_ok=True)


def _post(base: str, name: str, forwarded: str) -> int:
    request = urllib.request.Request(
        f"{base}/api/accounts/",
        data=json.dumps({"username": name, "password": PASSWORD}).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": forwarded},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return int(refused.code)


def test_the_server_make_run_starts_ignores_x_forwarded_for_from_loopback(make_run_server: str) -> None:
    limit = settings.ARENA_SIGNUPS_PER_ADDRESS
    answers = [_post(make_run_server, f"u{i}", f"203.0.113.{i}") for i in range(limit + 2)]
    assert answers == [201] * limit + [429, 429]
