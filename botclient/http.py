"""Hosted bots: protocol v1 messages POSTed as JSON to the owner's URL.

The URL is the one thing of the bot we act on, so it is treated as hostile:
only ``http``/``https``, the host is resolved once per match and every
address must be public (not loopback, private, link-local, multicast,
reserved, unspecified, shared or carrier-grade NAT space, nor such an address
hidden in IPv4-mapped, NAT64, 6to4 or Teredo IPv6 forms), and every request
connects to that checked address itself, so a second DNS answer cannot point
the service at Redis or PostgreSQL.  Redirects are not followed, replies are
capped at the protocol's 64 KiB, and a watchdog closes the socket at the move
deadline even if the server drips bytes slowly.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Unpack
from urllib.parse import urlsplit

from .protocol import CRASH, INVALID, MAX_MESSAGE_BYTES, OK, TIMEOUT, BotFailure, MoveResult, encode
from .session import BotSession, Exchange, SessionLimits

Resolver = Callable[[str, int], list[str]]
USER_AGENT = "part-du-chef-arena/1 (bot protocol v1)"

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_SHARED = ipaddress.ip_network("100.64.0.0/10")


class UnsafeEndpoint(ValueError):
    """A bot URL the service refuses to call; the message names the reason."""


class PrivateEndpoint(UnsafeEndpoint):
    """The URL reaches a loopback, private or otherwise non-public address (allowed on one's own machine)."""


@dataclass(frozen=True)
class Endpoint:
    scheme: str
    host: str
    port: int
    path: str

    @property
    def origin(self) -> str:
        return f"{self.scheme}://{self.host}:{self.port}"


def parse_endpoint(url: str) -> Endpoint:
    if not isinstance(url, str) or len(url) > 2000:
        raise UnsafeEndpoint("a bot URL is a string of at most 2000 characters")
    if any(ch.isspace() or ord(ch) < 32 for ch in url):
        raise UnsafeEndpoint("the bot URL contains whitespace or control characters")
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise UnsafeEndpoint(f"only http and https bot URLs are accepted, not {scheme or 'no scheme'!r}")
    if parts.username is not None or parts.password is not None:
        raise UnsafeEndpoint("the bot URL must not carry a user name or password")
    host = parts.hostname
    if not host:
        raise UnsafeEndpoint("the bot URL has no host")
    try:
        port = parts.port or (443 if scheme == "https" else 80)
    except ValueError as exc:
        raise UnsafeEndpoint(f"the bot URL has an invalid port: {exc}") from exc
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Endpoint(scheme, host, port, path)


def refusal(address: IPAddress) -> str | None:
    """Why calling ``address`` is refused, or None if it is a public unicast address."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded: IPAddress | None = address.ipv4_mapped
        if embedded is None and address in _NAT64:
            embedded = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if embedded is None and address.sixtofour is not None:
            embedded = address.sixtofour
        if embedded is None and address.teredo is not None:
            embedded = address.teredo[1]
        if embedded is not None:
            inner = refusal(embedded)
            return f"{inner} (inside {address})" if inner else None
    for label, flag in (
        ("loopback", address.is_loopback),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("unspecified", address.is_unspecified),
        ("reserved", address.is_reserved),
        ("private", address.is_private),
    ):
        if flag:
            return f"{address} is a {label} address"
    if isinstance(address, ipaddress.IPv4Address) and address in _SHARED:
        return f"{address} is a shared (carrier-grade NAT) address"
    if not address.is_global:
        return f"{address} is not a public address"
    return None


class Unresolvable(UnsafeEndpoint):
    """The host name has no address now (it may have one later)."""


def system_resolver(host: str, port: int) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise Unresolvable(f"cannot resolve {host!r}: {exc.strerror}") from exc
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def resolve_checked(endpoint: Endpoint, *, allow_private: bool, resolver: Resolver = system_resolver) -> str:
    """The address to connect to: every address the name has must pass (unless allow_private)."""
    addresses = resolver(endpoint.host, endpoint.port)
    if not addresses:
        raise UnsafeEndpoint(f"{endpoint.host!r} has no address")
    parsed = []
    for text in addresses:
        try:
            parsed.append(ipaddress.ip_address(text.split("%", 1)[0]))
        except ValueError as exc:
            raise UnsafeEndpoint(f"{endpoint.host!r} resolved to an invalid address {text!r}") from exc
    if not allow_private:
        for address in parsed:
            reason = refusal(address)
            if reason:
                raise PrivateEndpoint(f"bot URLs must reach a public address: {endpoint.host} -> {reason}")
    return str(parsed[0])


def check_endpoint(url: str, *, allow_private: bool, resolver: Resolver = system_resolver) -> Endpoint:
    """The check a bot URL gets when it is submitted, the same one HttpBot makes before every match.

    A name that does not resolve yet is let through (its owner may still be setting it up, and each
    match checks again); a bad scheme, credentials, or an address that is private now are refused.
    """
    endpoint = parse_endpoint(url)
    try:
        resolve_checked(endpoint, allow_private=allow_private, resolver=resolver)
    except Unresolvable:
        pass
    return endpoint


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, endpoint: Endpoint, address: str, timeout: float) -> None:
        super().__init__(endpoint.host, endpoint.port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, endpoint: Endpoint, address: str, timeout: float, context: ssl.SSLContext) -> None:
        super().__init__(endpoint.host, endpoint.port, timeout=timeout, context=context)
        self._address = address
        self._ssl_context = context

    def connect(self) -> None:
        raw = socket.create_connection((self._address, self.port), self.timeout)
        raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = self._ssl_context.wrap_socket(raw, server_hostname=self.host)


class _Deadline(Exception):
    pass


class HttpBot(BotSession):
    """A bot hosted by its owner; one keep-alive connection to the checked address per match."""

    def __init__(
        self,
        url: str,
        *,
        allow_private: bool = False,
        resolver: Resolver = system_resolver,
        ssl_context: ssl.SSLContext | None = None,
        max_response_bytes: int = MAX_MESSAGE_BYTES,
        **kwargs: Unpack[SessionLimits],
    ) -> None:
        super().__init__(**kwargs)
        self.endpoint = parse_endpoint(url)  # raises UnsafeEndpoint at once for a bad URL
        self.allow_private = allow_private
        self.resolver = resolver
        self.ssl_context = ssl_context or ssl.create_default_context()
        self.max_response_bytes = max_response_bytes
        self.address: str | None = None
        self._conn: http.client.HTTPConnection | None = None
        self._closed = False

    def _launch(self) -> None:
        try:
            self.address = resolve_checked(self.endpoint, allow_private=self.allow_private, resolver=self.resolver)
        except UnsafeEndpoint as exc:
            raise BotFailure(MoveResult(None, CRASH, 0.0, "", str(exc))) from exc

    def _connection(self, timeout: float) -> http.client.HTTPConnection:
        if self._conn is None:
            assert self.address is not None
            if self.endpoint.scheme == "https":
                self._conn = _PinnedHTTPS(self.endpoint, self.address, timeout, self.ssl_context)
            else:
                self._conn = _PinnedHTTP(self.endpoint, self.address, timeout)
        return self._conn

    def _exchange(self, message: dict[str, Any], timeout_s: float, reply: bool) -> Exchange:
        if self._closed or self.address is None:
            return Exchange(None, CRASH, "the bot is stopped")
        body = encode(message)
        deadline = time.monotonic() + timeout_s
        reused = self._conn is not None and self._conn.sock is not None
        try:
            return self._post(body, deadline, timeout_s)
        except (ConnectionError, http.client.RemoteDisconnected, http.client.CannotSendRequest) as exc:
            # A kept-alive connection the server closed meanwhile: one fresh attempt.
            self._drop_connection()
            if reused and time.monotonic() < deadline:
                try:
                    return self._post(body, deadline, timeout_s)
                except Exception as retry_exc:  # noqa: BLE001 - classified below
                    return self._failed(retry_exc, timeout_s)
            return self._failed(exc, timeout_s)
        except Exception as exc:  # noqa: BLE001 - any transport error is the bot's failure, classified
            return self._failed(exc, timeout_s)

    def _post(self, body: bytes, deadline: float, timeout_s: float) -> Exchange:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _Deadline
        conn = self._connection(remaining)
        fired = threading.Event()

        def expire() -> None:
            fired.set()
            sock = conn.sock
            if sock is not None:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        watchdog = threading.Timer(remaining, expire)
        watchdog.daemon = True
        watchdog.start()
        try:
            conn.timeout = remaining
            if conn.sock is not None:
                conn.sock.settimeout(remaining)
            conn.request(
                "POST",
                self.endpoint.path,
                body=body,
                headers={"Content-Type": "application/json", "Accept": "application/json", "User-Agent": USER_AGENT},
            )
            response = conn.getresponse()
            length = response.getheader("Content-Length")
            if length is not None and length.isdigit() and int(length) > self.max_response_bytes:
                self._drop_connection()
                return Exchange(
                    None, INVALID, f"reply of {length} bytes exceeds the limit of {self.max_response_bytes}"
                )
            data = response.read(self.max_response_bytes + 1)
            if fired.is_set():
                raise _Deadline
            if len(data) > self.max_response_bytes:
                self._drop_connection()
                return Exchange(None, INVALID, f"reply longer than {self.max_response_bytes} bytes", answer=data)
            if response.will_close:
                self._drop_connection()
        except Exception:
            if fired.is_set():
                raise _Deadline from None
            raise
        finally:
            watchdog.cancel()
        if 300 <= response.status < 400:
            self._drop_connection()
            where = response.getheader("Location", "elsewhere")
            return Exchange(
                None, INVALID, f"HTTP {response.status} redirect to {where[:200]} (redirects are not followed)"
            )
        if response.status != 200:
            return Exchange(None, CRASH, f"HTTP {response.status} {response.reason}"[:200])
        return Exchange(bytes(data), OK)

    def _failed(self, exc: BaseException, timeout_s: float) -> Exchange:
        self._drop_connection()
        if isinstance(exc, (_Deadline, socket.timeout, TimeoutError)):
            return Exchange(None, TIMEOUT, f"no reply within {timeout_s * 1000:.0f} ms")
        if isinstance(exc, ssl.SSLError):
            return Exchange(None, CRASH, f"TLS error: {exc}")
        if isinstance(exc, http.client.HTTPException):
            return Exchange(None, CRASH, f"malformed HTTP reply: {exc.__class__.__name__} {exc}"[:300])
        if isinstance(exc, OSError):
            return Exchange(None, CRASH, f"cannot reach the bot at {self.endpoint.origin}: {exc.strerror or exc}")
        return Exchange(None, CRASH, f"{exc.__class__.__name__}: {exc}"[:300])

    def _drop_connection(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except OSError:
                pass
            self._conn = None

    def _shutdown(self) -> None:
        self._closed = True
        self._drop_connection()
