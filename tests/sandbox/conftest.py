"""Fixtures for the sandbox tests: a real sandbox on its own slot uids, and hostile bot files."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.botclient import SandboxedBot
from arena.sandbox import Sandbox, SandboxConfig
from arena.sandbox.slots import processes_of

BOTS = Path(__file__).resolve().parent / "bots"
ROOT = Path(__file__).resolve().parents[2]
STARTER_KITS = ROOT / "starter-kits"
TEST_BASE_UID = 62500
TEST_SLOTS = 6

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
    box = Sandbox(SandboxConfig(state_dir=Path("/run/arena-sandbox-tests"), base_uid=TEST_BASE_UID, slots=TEST_SLOTS))
    box.check()
    return box


@pytest.fixture
def start_bot(sandbox: Sandbox) -> Iterator[Callable[..., SandboxedBot]]:
    """Start a bot from tests/sandbox/bots (or any path); afterwards assert nothing of it is left."""
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
    for uid in range(TEST_BASE_UID, TEST_BASE_UID + TEST_SLOTS):
        assert processes_of(uid) == [], f"processes of sandbox uid {uid} outlived their bot"
