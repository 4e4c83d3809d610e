"""The site served as `make run` serves it (the gunicorn command of scripts/run.sh), for tests through the real
stack; and what such tests need around it: a TCP proxy to the database that they can cut, HTTP calls that
never raise on an error status, and the count of the server's PostgreSQL connections."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import socket
import struct
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import connection

from tests.support import ROOT, wait_until

RUN_SH = ROOT / "scripts" / "run.sh"
SEVERAL_HOSTS_SH = ROOT / "scripts" / "several_hosts.sh"
DEPLOY_MD = ROOT / "docs" / "deploy.md"

# Ports of these tests' own servers and proxies: never the machine's PostgreSQL or Redis.
PORTS = range(
    int(os.environ.get("ARENA_TEST_PORT_FIRST", "15500")), int(os.environ.get("ARENA_TEST_PORT_LAST", "15509")) + 1
)


def free_port() -> int:
    for port in PORTS:
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {PORTS.start}-{PORTS.stop - 1} (ARENA_TEST_PORT_FIRST, ARENA_TEST_PORT_LAST)")


@dataclass(frozen=True)
class ServerCommand:
    """A gunicorn command line, reduced to what decides how it serves: the application and the worker class."""

    application: str
    worker_class: str
    workers: str | None


def gunicorn_commands(text: str) -> list[ServerCommand]:
    """Every gunicorn command in a script or a page (continued lines joined), variables left as written."""
    joined = re.sub(r"\\\n\s*", " ", text)
    found = []
    for line in joined.splitlines():
        if "bin/gunicorn" not in line:
            continue
        # What follows the program's name (its closing quote in a script dropped), up to a comment.
        rest = line[line.index("bin/gunicorn") + len("bin/gunicorn") :].lstrip('"')
        words = shlex.split(rest.split(" #")[0].split("&")[0], posix=True)
        application = next(word for word in words if not word.startswith("-") and ":" in word)
        worker_class = words[words.index("-k") + 1] if "-k" in words else "sync"
        workers = words[words.index("--workers") + 1] if "--workers" in words else None
        found.append(ServerCommand(application, worker_class, workers))
    return found


def make_run_command(port: int) -> list[str]:
    """scripts/run.sh's gunicorn command, on loopback at `port`, with as many workers as run.sh starts by default."""
    (command,) = gunicorn_commands(RUN_SH.read_text())
    workers = command.workers or "1"
    default = re.search(r'WEB_PROCESSES="\$\{WEB_PROCESSES:-(\d+)\}"', RUN_SH.read_text())
    if workers.startswith("$") and default:
        workers = default[1]
    return [
        sys.executable,
        "-m",
        "gunicorn",
        command.application,
        "-k",
        command.worker_class,
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        workers,
    ]


@contextmanager
def make_run_server(environment: Mapping[str, str]) -> Iterator[str]:
    """The site served by run.sh's gunicorn command in these settings; yields its base URL."""
    port = free_port()
    log = ROOT / "var" / f"test-served-{os.getpid()}-{port}.log"
    log.parent.mkdir(exist_ok=True)
    with log.open("wb") as handle:
        server = subprocess.Popen(
            make_run_command(port),
            cwd=ROOT,
            env=dict(environment),
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"

    def serving() -> bool:
        if server.poll() is not None:
            return True
        try:
            with urllib.request.urlopen(f"{base}/api/games/", timeout=5):
                return True
        except (urllib.error.URLError, OSError):
            return False

    try:
        wait_until(serving, 120, "gunicorn to serve", on_fail=log.read_text(errors="replace"))
        assert server.poll() is None, log.read_text(errors="replace")
        yield base
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=30)
        if os.environ.get("ARENA_TEST_KEEP_LOGS"):
            print(log.read_text(errors="replace")[-5000:])
        log.unlink(missing_ok=True)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> object:
        return json.loads(self.body)


def call(
    base: str,
    path: str,
    *,
    method: str = "GET",
    body: object = None,
    headers: Mapping[str, str] | None = None,
    timeout: float = 60,
) -> Answer:
    """One HTTP request; an error status is an answer like any other."""
    data = None
    sent = dict(headers or {})
    if body is not None:
        data = json.dumps(body).encode()
        sent.setdefault("Content-Type", "application/json")
    request = urllib.request.Request(f"{base}{path}", data=data, headers=sent, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return Answer(int(answer.status), {k.lower(): v for k, v in answer.headers.items()}, answer.read())
    except urllib.error.HTTPError as refused:
        return Answer(int(refused.code), {k.lower(): v for k, v in refused.headers.items()}, refused.read())


def other_sessions() -> int:
    """The sessions on the test database other than this process' own."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def _sessions() -> str:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT application_name, client_port, state, backend_start, query FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return "\n".join(str(row) for row in cursor.fetchall())


def wait_for_the_servers_sessions_to_end() -> None:
    """A stopped server's (or a cut proxy's) sessions end a moment after: the test database is dropped after them."""
    wait_until(lambda: other_sessions() == 0, 60, "the server's database sessions to end", on_fail=_sessions())


class CuttableProxy:
    """A TCP proxy of the test's own in front of PostgreSQL. `cut()` is the database going away: every
    connection through it is reset and new ones are refused (nothing listens) until `restore()`.
    The machine's PostgreSQL itself is never touched."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = free_port()
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._listener: socket.socket | None = None
        self._stopping = threading.Event()

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        self._stopping.clear()
        threading.Thread(target=self._accept, args=(listener,), daemon=True, name="proxy-accept").start()

    def _accept(self, listener: socket.socket) -> None:
        while not self._stopping.is_set():
            try:
                client, _ = listener.accept()
            except OSError:
                return  # the listener was closed: cut
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self._lock:
                if self._stopping.is_set():
                    client.close()
                    upstream.close()
                    return
                self._sockets.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True, name="proxy-pipe").start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                self._reset(end)

    def _reset(self, end: socket.socket) -> None:
        with self._lock:
            self._sockets.discard(end)
        try:
            # Linger 0: closing sends a reset, as a vanished server's host would.
            end.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass
        try:
            # Wakes the other direction's thread blocked reading this socket: a socket closed under a blocked
            # read stays open until that read returns.
            end.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        end.close()

    def cut(self) -> None:
        self._stopping.set()
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        with self._lock:
            ends = list(self._sockets)
        for end in ends:
            self._reset(end)

    def restore(self) -> None:
        self.start()

    def stop(self) -> None:
        self.cut()
