"""Protocol v1 over stdin/stdout in the sandbox: replies, the time bank, and malformed output."""

from __future__ import annotations

import os
import subprocess
import sys

from botclient import INVALID, OK, TIMEOUT, BotFailure, SandboxedBot

from .conftest import BOTS, FAKE_OBSERVATION


def test_a_well_behaved_bot_answers_every_request(start_bot):
    bot = start_bot("echo_turn")
    results = [bot.act(dict(FAKE_OBSERVATION, turn=t)) for t in range(5)]
    assert [r.status for r in results] == [OK] * 5
    assert [r.action["turn"] for r in results] == [0, 1, 2, 3, 4]
    assert results[0].action["time_ms"] == 1000 + 10000
    assert all(r.latency_ms < 1000 for r in results)


def test_the_caller_can_shorten_the_time_offered_for_a_move(start_bot):
    bot = start_bot("echo_turn")
    assert bot.act(FAKE_OBSERVATION, time_ms=250).action["time_ms"] == 250


def test_time_over_the_move_limit_comes_out_of_the_bank_until_it_runs_out(start_bot):
    bot = start_bot("slow_then_fast", move_ms=200, bank_ms=400)
    first = bot.act(FAKE_OBSERVATION)
    assert first.status == OK
    assert first.action["time_ms"] == 600
    assert 100 < bot.budget.bank_ms <= 200  # the 200 ms or so over the move limit came out of the bank
    second = bot.act(FAKE_OBSERVATION)
    assert second.status == TIMEOUT  # 800 ms needed, about 400 left


def test_the_time_a_bot_waited_for_a_cpu_the_machine_gave_to_others_is_not_charged(start_bot):
    # One CPU for this thread and what it starts (the bot inherits it), shared with five processes that
    # never stop computing: the bot gets a sixth of it at most, so its 100 ms of thinking take 600 ms or
    # more on the clock, past its 300 ms. Its waits for the CPU are given back; its thinking is charged.
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(5)]
    try:
        bot = start_bot("cpu_thinker", move_ms=300, bank_ms=0, start_ms=20_000)
        results = [bot.act(FAKE_OBSERVATION) for _ in range(3)]
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
        os.sched_setaffinity(0, allowed)
    assert [r.status for r in results] == [OK] * 3, [r.error for r in results]
    assert all(100 <= r.latency_ms < 300 for r in results), [r.latency_ms for r in results]


def test_a_bot_that_sleeps_is_not_given_time_back_however_busy_the_machine(start_bot):
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(5)]
    try:
        result = start_bot("busy_sleep", move_ms=300, bank_ms=0, start_ms=20_000).act(FAKE_OBSERVATION)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
        os.sched_setaffinity(0, allowed)
    assert result.status == TIMEOUT and result.error.startswith("no reply within 300 ms")


def test_a_reply_over_64_kib_is_invalid(start_bot):
    result = start_bot("big_reply").act(FAKE_OBSERVATION)
    assert result.status == INVALID
    assert "65536" in result.error


def test_output_nobody_asked_for_is_invalid(sandbox):
    bot = SandboxedBot(BOTS / "chatty.py", sandbox=sandbox)
    try:
        # The stray line arrives with the reply or after it: refused either way.
        bot.start(0, 2, {})
        result = bot.act(FAKE_OBSERVATION)
    except BotFailure as exc:
        result = exc.result
    finally:
        bot.close()
    assert result.status == INVALID
    # Depending on when the stray line lands it is named as such or read as a bad reply.
    assert "use stderr for logs" in result.error or "debug: ready sent" in result.error


def test_json_that_is_not_an_action_is_invalid(start_bot):
    result = start_bot("wrong_shape").act(FAKE_OBSERVATION)
    assert result.status == INVALID
    assert "JSON object" in result.error


def test_an_invalid_reply_carries_what_the_bot_wrote_for_the_log(start_bot, tmp_path):
    two_lines = tmp_path / "two_lines.py"
    two_lines.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line)['type'] == 'start':\n"
        "        print(json.dumps({'type': 'ready'}), flush=True)\n"
        "    else:\n"
        '        sys.stdout.write(\'{"type": "cut"}\\nand a second line\\n\'); sys.stdout.flush()\n'
    )
    result = start_bot(two_lines).act(FAKE_OBSERVATION)
    assert result.status == INVALID and "more than one line" in result.error
    assert result.answer == '{"type": "cut"}\nand a second line\n'
    big = start_bot("big_reply").act(FAKE_OBSERVATION)
    assert big.status == INVALID
    assert big.answer.startswith('{"type": "cut", "cuts": [0, 6], "pad": "xxx')
    assert big.answer.endswith(" bytes in all]")
    assert len(big.answer.encode()) < 600
