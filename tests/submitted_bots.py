"""Fixtures for submitted bots (a plugin of tests/conftest.py): API clients, a real sandbox on slot uids of its own,
bot files. The folders of submitted bots' tests use `bot_settings` in every test (their conftest.py)."""

from __future__ import annotations

import io
import os
import shutil
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from sandbox.slots import processes_of
from submissions import actions
from submissions.seats import close_kept_processes

ROOT = Path(__file__).resolve().parents[1]
STARTER_KITS = ROOT / "starter-kits"
# One folder of hostile bots; the kit_* ones play the starter kit's moves around their attack.
SANDBOX_BOTS = ROOT / "tests" / "hostile_bots"
HOSTILE = SANDBOX_BOTS
SLOTS = 6
# Slot uids of this test run alone (no account has them): another run of the suite at the same time (several people
# test on one machine) gets other uids, so "no process of these uids is left" is exact.
BASE_UID = 200_000 + (os.getpid() % 1000) * SLOTS
STATE_DIR = f"/run/arena-sandbox-bots-tests-{BASE_UID}"


def zipped(entries: dict[str, bytes | str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def kit_zip(main: str) -> bytes:
    """A zip whose main.py imports the Python starter kit as `kit`."""
    return zipped({"main.py": main, "kit.py": (STARTER_KITS / "python" / "bot.py").read_text()})


def sandboxed_processes() -> dict[int, list[int]]:
    return {uid: pids for uid in range(BASE_UID, BASE_UID + SLOTS) if (pids := processes_of(uid))}


@pytest.fixture(scope="session")
def _own_state_dir() -> Iterator[None]:
    """The sandbox state directory of this run (lock files, staging) goes with it."""
    yield
    shutil.rmtree(STATE_DIR, ignore_errors=True)


@pytest.fixture
def bot_settings(settings: Any, tmp_path_factory: pytest.TempPathFactory, _own_state_dir: None) -> Iterator[Any]:
    """The service's sandbox on slot uids of these tests, short limits so failures come fast."""
    settings.ARENA_SANDBOX_STATE_DIR = STATE_DIR
    settings.ARENA_SANDBOX_BASE_UID = BASE_UID
    settings.ARENA_SANDBOX_SLOTS = SLOTS
    settings.ARENA_BOT_CACHE_DIR = str(tmp_path_factory.getbasetemp() / "bot-cache")
    settings.ARENA_BOT_MOVE_MS = 400
    settings.ARENA_BOT_BANK_MS = 300
    settings.ARENA_BOT_START_MS = 3000
    settings.ARENA_BOT_VALIDATION_GAMES = 2
    yield settings
    # Bots kept for a next game are stopped with the process that kept them (here, or a worker that stopped).
    close_kept_processes()
    left = sandboxed_processes()
    deadline = time.monotonic() + 10
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = sandboxed_processes()
    assert left == {}, f"sandboxed processes outlived their match: {_describe(left)}"


def _describe(left: dict[int, list[int]]) -> str:
    parts = []
    for uid, pids in left.items():
        for pid in pids:
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                command = "?"
            try:
                status = Path(f"/proc/{pid}/status").read_text()
                parent = next(line.split()[1] for line in status.splitlines() if line.startswith("PPid:"))
                parent_command = Path(f"/proc/{parent}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:120]
            except (OSError, StopIteration):
                parent, parent_command = "?", "?"
            parts.append(f"uid {uid} pid {pid}: {command[:120]} (parent {parent}: {parent_command})")
    return "; ".join(parts)


def worker_environment() -> dict[str, str]:
    """The same sandbox and limits for real worker processes as for the tests' own process."""
    return {
        "ARENA_SANDBOX_STATE_DIR": STATE_DIR,
        "ARENA_SANDBOX_BASE_UID": str(BASE_UID),
        "ARENA_SANDBOX_SLOTS": str(SLOTS),
        "ARENA_BOT_MOVE_MS": "400",
        "ARENA_BOT_BANK_MS": "300",
        "ARENA_BOT_START_MS": "3000",
    }


@pytest.fixture
def users(db: None) -> dict[str, User]:
    return {
        # No passwords: the API clients are authenticated directly, and hashing is slow.
        "alice": User.objects.create_user("alice"),
        "bob": User.objects.create_user("bob"),
        "boss": User.objects.create_user("boss", is_staff=True),
    }


@pytest.fixture
def client_for(users: dict[str, User]) -> Callable[[str], APIClient]:
    def make(name: str) -> APIClient:
        api = APIClient()
        api.force_authenticate(users[name])
        return api

    return make


@pytest.fixture
def submit(users: dict[str, User]) -> Callable[..., Any]:
    """Create a submitted bot directly (no HTTP), validated or not."""

    def make(
        name: str,
        data: bytes | None = None,
        *,
        filename: str = "main.py",
        owner: str = "alice",
        endpoint: str | None = None,
        validate: bool = True,
    ) -> Any:
        bot = actions.create_bot(
            owner=users[owner],
            name=name,
            game="part-du-chef",
            upload=(filename, data) if data is not None else None,
            endpoint=endpoint,
        )
        if validate:
            actions.run_validation(bot.versions.get(number=1).id)
        bot.refresh_from_db()
        return bot

    return make
