"""Fixtures for the local command line: `part-du-chef` with its resolver on slot uids of this run only."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import shutil
import sys
import threading
import zipfile
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from botclient.local import LocalBots
from games.part_du_chef import cli
from sandbox import SandboxConfig
from sandbox.slots import processes_of

ROOT = Path(__file__).resolve().parents[2]
STARTER_KITS = ROOT / "starter-kits"
SANDBOX_BOTS = ROOT / "tests" / "hostile_bots"
HOSTILE = SANDBOX_BOTS
# `compare` runs every bot program of a deal's games at once: the walkthrough's (docs/bots-submission.md) six.
SLOTS = 8
# Slot uids of this run alone: other runs on the machine (other people's tests, an arena worker) use others.
BASE_UID = 300_000 + (os.getpid() % 1000) * SLOTS
STATE_DIR = Path(f"/run/part-du-chef-tests-{BASE_UID}")
# The arena tests' short limits (tests/submitted_bots.py), so that failures come as fast there as here.
FAST = {"move_ms": 400, "bank_ms": 300, "start_ms": 3000}


def sandbox_config() -> SandboxConfig:
    return SandboxConfig(state_dir=STATE_DIR, base_uid=BASE_UID, slots=SLOTS)


@pytest.fixture(scope="session", autouse=True)
def _own_state_dir() -> Iterator[None]:
    yield
    shutil.rmtree(STATE_DIR, ignore_errors=True)


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Iterator[Callable[..., tuple[int, str, str]]]:
    """Run `part-du-chef ARGS...` in this process: (exit status, stdout, stderr)."""

    def invoke(*argv: str, fast: bool = False) -> tuple[int, str, str]:
        capsys.readouterr()
        resolver = LocalBots(sandbox_config=sandbox_config(), **(FAST if fast else {}))
        status = cli.main(list(argv), resolvers=[resolver], prog="part-du-chef")
        out, err = capsys.readouterr()
        return status, out, err

    yield invoke
    left = {uid: pids for uid in range(BASE_UID, BASE_UID + SLOTS) if (pids := processes_of(uid))}
    assert left == {}, f"sandboxed processes outlived their game: {left}"


def kit_zip(tmp_path: Path, main: str = "from kit import main\nmain()\n") -> Path:
    """A zip whose main.py imports the Python starter kit as `kit`."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("main.py", main)
        zf.writestr("kit.py", (STARTER_KITS / "python" / "bot.py").read_text())
    path = tmp_path / "kitbot.zip"
    path.write_bytes(buffer.getvalue())
    return path


def _load_kit():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("kit", STARTER_KITS / "python" / "bot.py")
    assert spec is not None and spec.loader is not None
    kit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kit)
    return kit


class _HostedKit(BaseHTTPRequestHandler):
    """A hosted bot on localhost: the Python starter kit's policy answering POSTed protocol messages."""

    protocol_version = "HTTP/1.1"
    kit = _load_kit()
    seen: list[str] = []

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        message = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.seen.append(message["type"])
        if message["type"] == "start":
            reply = {"type": "ready"}
        elif message["type"] == "act":
            obs = message["observation"]
            reply = self.kit.choose_cut(obs) if obs["phase"] == "cut" else self.kit.choose_take(obs)
        else:
            reply = {}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def hosted() -> Iterator[str]:
    _HostedKit.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _HostedKit)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{server.server_address[1]}/bot"
    server.shutdown()
    server.server_close()


def records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


PYTHON = sys.executable
