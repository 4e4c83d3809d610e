"""Fixtures for the sandbox tests: a real sandbox on its own slot uids, and hostile bot files."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from botclient import SandboxedBot
from sandbox import Sandbox, SandboxConfig
from sandbox.slots import processes_of

# One folder of hostile and misbehaving bots for the sandbox tests and the match tests alike.
BOTS = Path(__file__).resolve().parent.parent / "hostile_bots"
ROOT = Path(__file__).resolve().parents[2]
STARTER_KITS = ROOT / "starter-kits"
# Slot uids (and lock files) of this test run only: two runs on one machine (say a developer's and
# a CI check) must not see each other's bots in the "nothing left behind" checks.
TEST_BASE_UID = 63000 + (os.getpid() % 100) * 8
TEST_SLOTS = 6
TEST_STATE_DIR = Path(f"/run/arena-sandbox-tests-{TEST_BASE_UID}")

FAKE_OBSERVATION: dict[str, Any] = {
    "seat": 0,
    "players": 2,
    "pizza": 0,
    "chef": 0,
    "phase": "cut",
    "turn": 0,
    "ring": [{"id": i, "sort": "reine", "olives": 2, "finisher": False} for i in range(13)],
    "cuts": None,
    "portions": [],
    "kept": [[], []],
    "eaten": [[], []],
    "marianne": {"in_play": False, "holder": None},
    "unseen": {},
}


@pytest.fixture(scope="session")
def sandbox() -> Sandbox:
    """The real sandbox; if it cannot start here the tests fail (they never fall back to bare runs)."""
    box = Sandbox(SandboxConfig(state_dir=TEST_STATE_DIR, base_uid=TEST_BASE_UID, slots=TEST_SLOTS))
    box.check()
    return box


@pytest.fixture
def start_bot(sandbox: Sandbox) -> Iterator[Callable[..., SandboxedBot]]:
    """Start a bot from tests/hostile_bots (or any path); afterwards assert nothing of it is left."""
    started: list[SandboxedBot] = []

    def start(name: str | Path, options: dict[str, Any] | None = None, **kwargs: Any) -> SandboxedBot:
        path = name if isinstance(name, Path) else BOTS / f"{name}.py"
        bot = SandboxedBot(path, sandbox=sandbox, **kwargs)
        started.append(bot)
        bot.start(0, 2, options or {})
        return bot

    yield start
    for bot in started:
        bot.close()
    sandbox.kept.close_all()  # a bot that asked for more games is kept after a clean end
    for uid in range(TEST_BASE_UID, TEST_BASE_UID + TEST_SLOTS):
        assert processes_of(uid) == [], f"processes of sandbox uid {uid} outlived their bot"
