"""Hostile bots run in the real sandbox: each is contained and reported with the right status."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path

from botclient import CRASH, INVALID, OK, TIMEOUT, BotFailure, SandboxedBot, limits
from sandbox.slots import processes_of

from .conftest import BOTS, FAKE_OBSERVATION, ROOT

QUICK = {"move_ms": 300, "bank_ms": 200}


def test_a_fork_bomb_times_out_and_never_exceeds_its_process_limit(start_bot):
    bot = start_bot("fork_bomb", **QUICK)
    uid = bot.uid
    peak = 0
    done = threading.Event()

    def watch() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, len(processes_of(uid)))
            time.sleep(0.01)

    watcher = threading.Thread(target=watch)
    watcher.start()
    result = bot.act(FAKE_OBSERVATION)
    done.set()
    watcher.join()
    assert result.status == TIMEOUT
    assert 1 < peak <= 32
    assert processes_of(uid) == []
    # The worker itself can still start processes.
    assert subprocess.run(["/bin/true"], check=False).returncode == 0


def test_a_memory_hog_crashes_on_the_memory_limit(start_bot):
    result = start_bot("memory_hog").act(FAKE_OBSERVATION)
    assert result.status == CRASH
    assert "MemoryError" in result.stderr_tail


def test_an_endless_loop_times_out_after_the_move_limit_and_the_bank(start_bot):
    began = time.monotonic()
    result = start_bot("endless_loop", **QUICK).act(FAKE_OBSERVATION)
    elapsed = time.monotonic() - began
    assert result.status == TIMEOUT
    # Its 500 ms, plus what it waited for a CPU on a busy machine (given back, up to three times as much),
    # plus the stopping: never an endless wait.
    assert 0.45 <= elapsed < 0.5 * (1 + limits.CPU_WAIT_CREDIT) + 1.5
    assert "500 ms" in result.error


def test_a_sleeping_bot_times_out(start_bot):
    result = start_bot("busy_sleep", **QUICK).act(FAKE_OBSERVATION)
    assert result.status == TIMEOUT


def test_a_bot_that_never_says_ready_fails_to_start_within_the_start_limit(sandbox):
    bot = SandboxedBot(BOTS / "never_ready.py", sandbox=sandbox, start_ms=400)
    began = time.monotonic()
    try:
        bot.start(0, 2, {})
    except BotFailure as exc:
        assert exc.result.status == TIMEOUT
    else:
        raise AssertionError("a silent bot must not start")
    finally:
        bot.close()
    # Its 400 ms, what its start waited for a CPU on a busy machine (given back, up to three times as much),
    # and the sandbox's own start: never an endless wait.
    assert time.monotonic() - began < 0.4 * (1 + limits.CPU_WAIT_CREDIT) + 2.0


def test_a_bot_cannot_read_the_settings_the_shadow_file_or_the_environment(start_bot, monkeypatch):
    monkeypatch.setenv("ARENA_SECRET_KEY", "do-not-leak")
    paths = [
        str(ROOT / "config" / "settings.py"),
        "/etc/shadow",
        "/etc/passwd",
        "/root/.bashrc",
        f"/proc/{os.getpid()}/environ",
    ]
    assert Path(paths[0]).is_file()  # the file exists on the host
    result = start_bot("read_outside", options={"paths": paths}).act(FAKE_OBSERVATION)
    assert result.status == OK
    found = result.action["found"]
    assert {path: found[path] for path in paths} == dict.fromkeys(paths)
    assert "do-not-leak" not in str(result.action["environ"])
    assert set(result.action["environ"]) <= {
        "PATH",
        "HOME",
        "TMPDIR",
        "LANG",
        "PWD",
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONUNBUFFERED",
        "OPENBLAS_NUM_THREADS",  # set for Python bots (numpy's threads), sandbox.languages
    }
    assert "work" not in result.action["root"] and "root" not in result.action["root"]


def test_a_bot_can_write_only_to_its_private_tmp(start_bot):
    result = start_bot("write_outside").act(FAKE_OBSERVATION)
    assert result.status == OK
    wrote = result.action["wrote"]
    assert wrote.pop("/tmp/planted") is True
    assert not any(wrote.values()), wrote
    assert not Path("/tmp/planted").exists()


def test_a_bot_cannot_open_a_network_connection(start_bot):
    result = start_bot("network").act(FAKE_OBSERVATION)
    assert result.status == OK
    network = result.action["network"]
    assert all(outcome.startswith("refused") for outcome in network.values()), network
    assert "Operation not permitted" in network["tcp_redis"]


def test_a_stdout_flood_is_cut_at_the_message_limit(start_bot):
    result = start_bot("stdout_flood").act(FAKE_OBSERVATION)
    assert result.status == INVALID
    assert "65536" in result.error


def test_a_stderr_flood_is_drained_and_capped(start_bot):
    bot = start_bot("stderr_flood")
    result = bot.act(FAKE_OBSERVATION)
    assert result.status == OK
    assert result.stderr_tail.endswith("last words\n")
    assert len(result.stderr_tail) < 4096
    assert len(bot.stderr_log) < 70 * 1024


def test_garbage_json_is_invalid(start_bot):
    result = start_bot("garbage_json").act(FAKE_OBSERVATION)
    assert result.status == INVALID
    assert "not valid JSON" in result.error


def test_a_crash_mid_game_is_reported_with_its_last_words(start_bot):
    bot = start_bot("crash_mid_game")
    statuses = [bot.act(FAKE_OBSERVATION).status for _ in range(2)]
    third = bot.act(FAKE_OBSERVATION)
    assert statuses == [OK, OK]
    assert third.status == CRASH
    assert "giving up after two moves" in third.stderr_tail
    assert "exit code 1" in third.error
    assert bot.act(FAKE_OBSERVATION).status == CRASH  # stays stopped, answers at once


def test_forbidden_system_calls_are_denied_by_seccomp(start_bot):
    result = start_bot("syscalls").act(FAKE_OBSERVATION)
    assert result.status == OK
    calls = result.action["syscalls"]
    assert calls["seccomp_mode"] == "2"  # SECCOMP_MODE_FILTER: our filter is installed
    for name in ("ptrace", "mount", "unshare_user", "keyctl", "bpf"):
        assert calls[name] == {"rc": -1, "errno": 1}, (name, calls[name])
    assert calls["getpid"]["rc"] > 0
    assert calls["fork"] == 7


def test_memory_is_capped_for_all_of_a_bots_processes_together(start_bot, sandbox):
    assert sandbox.cgroups is not None, sandbox.cgroups_missing
    bot = start_bot("memory_team", move_ms=8000, bank_ms=0)
    for pid in processes_of(bot.uid):
        assert f"arena-sandbox/uid-{bot.uid}" in Path(f"/proc/{pid}/cgroup").read_text()
    result = bot.act(FAKE_OBSERVATION)
    assert result.status == OK, result
    # 512 MiB for the whole bot: at most two 200 MB helpers can live at once.
    assert result.action["finished"] + result.action["killed"] == 6
    assert result.action["killed"] >= 4
    assert sandbox.cgroups.hit_memory_limit(bot.uid)


def test_a_bot_writing_past_the_stderr_cap_is_stopped_with_a_message_naming_the_cap(start_bot):
    bot = start_bot("stderr_firehose", move_ms=5000, bank_ms=5000)
    result = bot.act(FAKE_OBSERVATION)
    assert (result.status, result.error) == (
        "crash",
        "the bot wrote more than 16 MiB to stderr, the cap per match (log less)",
    )
