"""Hosted HTTP bots: URL safety, the protocol over POST, and every way a server can misbehave."""

from __future__ import annotations

import ipaddress
import json
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from botclient import CRASH, INVALID, OK, TIMEOUT, BotFailure, HttpBot, UnsafeEndpoint
from botclient.http import parse_endpoint, refusal, resolve_checked

from .conftest import FAKE_OBSERVATION


class _Bot(BaseHTTPRequestHandler):
    """A hosted bot whose behaviour is chosen by the URL path."""

    received: list[dict] = []
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.received.append({"path": self.path, "body": body, "host": self.headers["Host"]})
        behaviour = self.path.strip("/")
        if body["type"] == "start":
            return self._send(200, {"type": "ready"})
        if body["type"] == "end":
            return self._send(200, {})
        if behaviour == "slow":
            time.sleep(1.5)
        if behaviour == "drip":
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            for _ in range(20):
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(0.1)
            return None
        if behaviour == "redirect":
            self.send_response(302)
            self.send_header("Location", "http://127.0.0.1:6379/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if behaviour == "huge":
            return self._send(200, {"type": "cut", "cuts": [0, 6], "pad": "x" * 100_000})
        if behaviour == "garbage":
            return self._raw(200, b"<html>oops</html>")
        if behaviour == "error":
            return self._raw(500, b"Internal Server Error")
        return self._send(200, {"type": "cut", "cuts": [0, 6], "turn": body["observation"]["turn"]})

    def _send(self, status: int, obj: dict) -> None:
        self._raw(status, json.dumps(obj).encode())

    def _raw(self, status: int, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Bot)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _started(url: str, **kwargs: object) -> HttpBot:
    bot = HttpBot(url, allow_private=True, **kwargs)
    bot.start(1, 3, {"marianne": False})
    return bot


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "ftp://example.com/bot",
        "gopher://example.com",
        "redis://127.0.0.1:6379",
        "example.com/bot",
    ],
)
def test_it_refuses_bot_urls_that_are_not_http(url):
    with pytest.raises(UnsafeEndpoint, match="only http and https"):
        HttpBot(url)


def test_it_refuses_credentials_in_a_bot_url():
    with pytest.raises(UnsafeEndpoint, match="user name or password"):
        parse_endpoint("https://user:secret@example.com/bot")


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "224.0.0.1",
        "240.0.0.1",
        "255.255.255.255",
        "::1",
        "::",
        "fe80::1",
        "fc00::1",
        "ff02::1",
        "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
        "64:ff9b::a00:1",
        "2002:7f00:1::",
    ],
)
def test_it_refuses_non_public_addresses(address):
    assert refusal(ipaddress.ip_address(address)) is not None


@pytest.mark.parametrize("address", ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
def test_it_accepts_public_addresses(address):
    assert refusal(ipaddress.ip_address(address)) is None


def test_a_name_resolving_to_loopback_is_refused_at_start():
    bot = HttpBot("http://localhost:6379/")
    with pytest.raises(BotFailure, match="public address"):
        bot.start(0, 2, {})
    assert bot.act(FAKE_OBSERVATION).status == CRASH


def test_one_private_answer_among_public_ones_is_enough_to_refuse():
    endpoint = parse_endpoint("https://bot.example/")
    with pytest.raises(UnsafeEndpoint, match="10.0.0.5"):
        resolve_checked(endpoint, allow_private=False, resolver=lambda host, port: ["93.184.216.34", "10.0.0.5"])


def test_every_request_goes_to_the_address_checked_at_start(server):
    """A second DNS answer (rebinding) is never asked for: the checked address is pinned."""
    port = int(server.rsplit(":", 1)[1])
    answers = [["127.0.0.1"], ["10.255.255.1"]]
    asked: list[str] = []

    def resolver(host: str, port_: int) -> list[str]:
        asked.append(host)
        return answers[len(asked) - 1]

    bot = HttpBot(f"http://bot.test:{port}/pinned", allow_private=True, resolver=resolver, move_ms=2000)
    bot.start(0, 2, {})
    results = [bot.act(dict(FAKE_OBSERVATION, turn=t)) for t in range(3)]
    bot.close()
    assert [r.status for r in results] == [OK, OK, OK]
    assert asked == ["bot.test"]
    assert _Bot.received[-1]["host"] == f"bot.test:{port}"


def test_an_http_bot_plays_with_the_protocol_v1_messages(server):
    _Bot.received.clear()
    bot = _started(server + "/play")
    result = bot.act(dict(FAKE_OBSERVATION, turn=7), 800)
    bot.end([{"seat": 0, "total": 10}], [1, 2])
    assert result.status == OK
    assert result.action == {"type": "cut", "cuts": [0, 6], "turn": 7}
    messages = [r["body"] for r in _Bot.received]
    assert messages[0] == {
        "type": "start",
        "protocol": 1,
        "game": "part-du-chef",
        "seat": 1,
        "players": 3,
        "options": {"marianne": False},
    }
    assert messages[1]["type"] == "act" and messages[1]["time_ms"] == 800
    assert messages[1]["observation"]["turn"] == 7
    assert messages[2] == {"type": "end", "scores": [{"seat": 0, "total": 10}], "ranks": [1, 2]}


def test_a_slow_http_bot_times_out_at_the_deadline(server):
    bot = _started(server + "/slow", move_ms=200, bank_ms=100)
    began = time.monotonic()
    result = bot.act(FAKE_OBSERVATION)
    assert result.status == TIMEOUT
    assert time.monotonic() - began < 0.6


def test_a_server_dripping_bytes_slowly_still_times_out(server):
    bot = _started(server + "/drip", move_ms=300, bank_ms=0)
    began = time.monotonic()
    result = bot.act(FAKE_OBSERVATION)
    assert result.status == TIMEOUT
    assert time.monotonic() - began < 0.8


def test_redirects_are_not_followed(server):
    result = _started(server + "/redirect").act(FAKE_OBSERVATION)
    assert result.status == INVALID
    assert "redirects are not followed" in result.error


def test_an_oversized_reply_is_invalid(server):
    result = _started(server + "/huge").act(FAKE_OBSERVATION)
    assert result.status == INVALID
    assert "exceeds the limit" in result.error


def test_a_reply_that_is_not_json_is_invalid(server):
    result = _started(server + "/garbage").act(FAKE_OBSERVATION)
    assert result.status == INVALID


def test_a_server_error_counts_as_a_crash(server):
    result = _started(server + "/error").act(FAKE_OBSERVATION)
    assert result.status == CRASH
    assert "HTTP 500" in result.error


def test_an_unreachable_bot_fails_to_start():
    bot = HttpBot("http://127.0.0.1:9/", allow_private=True, start_ms=500)
    with pytest.raises(BotFailure) as failure:
        bot.start(0, 2, {})
    assert failure.value.result.status == CRASH
    assert "cannot reach" in failure.value.result.error


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, str]]:
    """A hosted bot over HTTPS with a self-signed certificate for the name bot.test."""

    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=bot.test",
         "-addext", "subjectAltName=DNS:bot.test", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Bot)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield httpd.server_address[1], str(cert)
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.system
def test_an_https_bot_is_verified_by_name_while_connecting_to_the_pinned_address(tls_server):
    port, cert = tls_server
    trusted = ssl.create_default_context(cafile=cert)
    pinned = {"resolver": lambda host, port_: ["127.0.0.1"], "allow_private": True}
    bot = HttpBot(f"https://bot.test:{port}/tls", ssl_context=trusted, **pinned)
    bot.start(0, 2, {})
    assert bot.act(dict(FAKE_OBSERVATION, turn=3)).action["turn"] == 3
    bot.close()
    # The same server under a name its certificate does not carry is refused.
    wrong = HttpBot(f"https://other.test:{port}/tls", ssl_context=trusted, **pinned)
    with pytest.raises(BotFailure, match="TLS"):
        wrong.start(0, 2, {})
