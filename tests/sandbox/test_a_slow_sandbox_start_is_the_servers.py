"""Starting a sandboxed bot is two parts on two clocks: the server's (slot, staging, bubblewrap), limited
by the session's `launch_ms`, past which `ServerBusy` is raised and nobody fails; and the bot's, from
"start" written to its running process up to "ready"."""

from __future__ import annotations

import pytest

from botclient import BotFailure, SandboxedBot, ServerBusy
from sandbox import Sandbox, SandboxBusy, SandboxConfig
from sandbox.slots import processes_of
from tests.sandbox.conftest import BOTS, TEST_BASE_UID, TEST_SLOTS, TEST_STATE_DIR


def _slow_sandbox(delay_s: float) -> Sandbox:
    """The tests' sandbox, pausing `delay_s` in every start once the slot is held (a loaded machine)."""
    box = Sandbox(
        SandboxConfig(state_dir=TEST_STATE_DIR, base_uid=TEST_BASE_UID, slots=TEST_SLOTS, start_delay_s=delay_s)
    )
    box.check()
    return box


def _nothing_left(box: Sandbox) -> bool:
    box.kept.close_all()
    return all(processes_of(uid) == [] for uid in range(TEST_BASE_UID, TEST_BASE_UID + TEST_SLOTS))


def test_a_sandbox_start_past_the_servers_limit_raises_server_busy_and_fails_nobody(sandbox: Sandbox) -> None:
    box = _slow_sandbox(0.6)
    bot = SandboxedBot(BOTS / "echo_turn.py", sandbox=box, launch_ms=200)
    with pytest.raises(ServerBusy, match="took more than 200 ms to start the bot's sandbox"):
        bot.start(0, 2, {})
    assert bot.failure is None and not bot.started  # no forfeit: the session was never the bot's
    bot.close()
    with pytest.raises(SandboxBusy):
        box.spawn(BOTS / "echo_turn.py", ["/usr/bin/python3", "/bot/echo_turn.py"], ready_within=0.1)
    box._starter.shutdown(wait=True)  # the late starts end (and are closed) before the check below
    assert _nothing_left(box)


def test_the_start_limit_counts_from_start_written_to_the_running_process(sandbox: Sandbox) -> None:
    # Starting the sandbox takes longer than the bot's whole start limit: the bot is on time all the same.
    box = _slow_sandbox(0.5)
    bot = SandboxedBot(BOTS / "echo_turn.py", sandbox=box, start_ms=400, launch_ms=10_000)
    try:
        bot.start(0, 2, {})
        assert bot.started and bot.failure is None
    finally:
        bot.close()
    # A bot slow on its own clock still fails its start, with its reason.
    slow = SandboxedBot(BOTS / "slow_to_ready.py", sandbox=sandbox, start_ms=300, launch_ms=10_000)
    with pytest.raises(BotFailure, match="timeout: no reply within 300 ms"):
        slow.start(0, 2, {})
    slow.close()
    assert _nothing_left(box)
