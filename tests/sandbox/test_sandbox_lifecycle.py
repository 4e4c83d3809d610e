"""The sandbox's life cycle: refusal when it cannot run, the wall clock, and a worker that dies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from botclient import TIMEOUT, SandboxedBot
from sandbox import Sandbox, SandboxConfig, SandboxUnavailable
from sandbox.slots import kill_uid, processes_of

from .conftest import BOTS, FAKE_OBSERVATION, ROOT, TEST_BASE_UID, TEST_SLOTS, TEST_STATE_DIR

LIFECYCLE_UID = TEST_BASE_UID + TEST_SLOTS  # a slot of its own, so the other tests' checks stay exact


def _wait_until_gone(uid: int, timeout_s: float = 30.0) -> list[int]:
    # Returns as soon as the processes are gone; the bound only ends a wait that a starved machine
    # (the killer's timer waiting for a CPU) may stretch well past the bot's own limit.
    deadline = time.monotonic() + timeout_s
    while processes_of(uid) and time.monotonic() < deadline:
        time.sleep(0.02)
    return processes_of(uid)


def test_without_bubblewrap_an_untrusted_bot_is_refused_not_run_bare(tmp_path):
    box = Sandbox(SandboxConfig(bwrap=str(tmp_path / "no-bwrap"), state_dir=tmp_path / "state"))
    with pytest.raises(SandboxUnavailable, match="bubblewrap not found"):
        SandboxedBot(BOTS / "echo_turn.py", sandbox=box)


@pytest.mark.system
def test_a_worker_that_is_not_root_is_refused_with_a_clear_error(tmp_path):
    script = (
        "from pathlib import Path\n"
        "from sandbox import Sandbox, SandboxConfig, SandboxUnavailable\n"
        "try:\n"
        "    Sandbox(SandboxConfig(state_dir=Path('/tmp/arena-sandbox-nobody'))).check()\n"
        "except SandboxUnavailable as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run(
        ["/usr/bin/python3", "-c", script],
        user=65534,
        group=65534,
        extra_groups=[],
        env={"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert "must be started by root" in out.stdout


def test_a_bot_past_the_match_wall_clock_is_killed_even_when_nobody_asks(sandbox):
    bot = SandboxedBot(BOTS / "echo_turn.py", sandbox=sandbox, wall_s=0.5)
    bot.start(0, 2, {})
    uid = bot.uid
    assert bot.act(FAKE_OBSERVATION).ok
    assert processes_of(uid)
    assert _wait_until_gone(uid) == []
    result = bot.act(FAKE_OBSERVATION)
    bot.close()
    assert result.status == TIMEOUT
    assert "wall-clock" in result.error


def test_a_state_directory_the_slot_users_cannot_reach_is_refused(tmp_path):
    tmp_path.chmod(0o700)
    box = Sandbox(SandboxConfig(state_dir=tmp_path / "state"))
    with pytest.raises(SandboxUnavailable, match="cannot be traversed"):
        box.check()


@pytest.mark.system
def test_when_the_worker_is_killed_its_sandboxed_bot_dies_too():
    script = f"""
import sys, time
from pathlib import Path
from botclient import SandboxedBot
from sandbox import Sandbox, SandboxConfig
box = Sandbox(SandboxConfig(state_dir=Path("{TEST_STATE_DIR}-worker"), base_uid={LIFECYCLE_UID}, slots=1))
bot = SandboxedBot(Path({str(BOTS / "busy_sleep.py")!r}), sandbox=box)
bot.start(0, 2, {{}})
print(bot.uid, flush=True)
time.sleep(60)
"""
    worker = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}
    )
    try:
        uid = int(worker.stdout.readline())
        assert uid == LIFECYCLE_UID
        assert processes_of(uid)
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=5)
        assert _wait_until_gone(uid) == []
    finally:
        worker.kill()
        worker.wait()


def test_killing_a_slot_s_uid_kills_every_process_of_the_bot_however_it_was_started(sandbox):
    bot = SandboxedBot(BOTS / "echo_turn.py", sandbox=sandbox)
    bot.start(0, 2, {})
    assert bot.process is not None
    uid = bot.process.uid
    assert len(processes_of(uid)) >= 2  # bubblewrap and the bot inside its namespaces
    # What a claimer of the slot does (a worker killed mid-match, a lent slot): no process group, the uid alone.
    kill_uid(uid)
    assert processes_of(uid) == []
    bot.close()
