"""Whole games of La Part du Chef with sandboxed bots, built-in bots and the failure policy."""

from __future__ import annotations

import shutil

from botclient import SandboxedBot
from botclient.match import play_with_sessions
from games.part_du_chef import State, replay
from games.part_du_chef.bots import get_bot
from sandbox.slots import processes_of

from .conftest import BOTS, STARTER_KITS, TEST_BASE_UID, TEST_SLOTS

KIT_THEN_CRASH = """import json, sys
import kit

moves = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
        continue
    if msg["type"] == "end":
        break
    moves += 1
    if moves == 3:
        sys.exit("crashing on purpose in the middle of the game")
    obs = msg["observation"]
    action = kit.choose_cut(obs) if obs["phase"] == "cut" else kit.choose_take(obs)
    print(json.dumps(action), flush=True)
"""


def _assert_no_sandboxed_process_left(sandbox) -> None:
    sandbox.kept.close_all()  # the kits ask for more games: their processes wait for one after a clean end
    for uid in range(TEST_BASE_UID, TEST_BASE_UID + TEST_SLOTS):
        assert processes_of(uid) == []


def _check_replay(state: State) -> None:
    record = state.to_record([f"seat{i}" for i in range(state.players)])
    assert [s.total for s in replay(record).scores()] == [s.total for s in state.scores()]


def test_both_starter_kits_play_a_whole_game_in_the_sandbox(sandbox):
    seats = [
        SandboxedBot(STARTER_KITS / "python" / "bot.py", sandbox=sandbox),
        SandboxedBot(STARTER_KITS / "javascript" / "bot.js", sandbox=sandbox),
        get_bot("greedy", seed=1),
        get_bot("random", seed=2),
    ]
    state = State.new(4, 2024, marianne=True)
    play = play_with_sessions(state, seats, {"marianne": True})
    assert state.is_over
    assert play.forfeited == [False, False, False, False]
    kit_moves = [m for m in play.moves if m.seat in (0, 1)]
    assert len(kit_moves) >= 10 and {m.status for m in kit_moves} == {"ok"}
    assert max(m.latency_ms for m in kit_moves) < 1000
    _check_replay(state)
    _assert_no_sandboxed_process_left(sandbox)


def test_failing_bots_forfeit_and_the_match_still_completes(sandbox, tmp_path):
    crasher = tmp_path / "crasher"
    crasher.mkdir()
    shutil.copy(STARTER_KITS / "python" / "bot.py", crasher / "kit.py")
    (crasher / "main.py").write_text(KIT_THEN_CRASH)
    quick = {"move_ms": 300, "bank_ms": 200}
    seats = [
        SandboxedBot(BOTS / "illegal_move.py", sandbox=sandbox),
        SandboxedBot(crasher, sandbox=sandbox),
        SandboxedBot(BOTS / "endless_loop.py", sandbox=sandbox, **quick),
        SandboxedBot(BOTS / "garbage_json.py", sandbox=sandbox),
        get_bot("greedy", seed=5),
    ]
    state = State.new(5, 77)
    play = play_with_sessions(state, seats)
    assert state.is_over
    assert play.forfeited == [True, True, True, True, False]
    last_status = {}
    for move in play.moves:
        last_status[move.seat] = move.status
    assert last_status == {0: "illegal", 1: "crash", 2: "timeout", 3: "invalid"}
    assert [m.status for m in play.moves if m.seat == 1] == ["ok", "ok", "crash"]
    assert "crashing on purpose" in [m for m in play.moves if m.seat == 1][-1].stderr
    assert play.forfeit_reasons[0].startswith("illegal: seat 0 must cut")
    _check_replay(state)
    _assert_no_sandboxed_process_left(sandbox)
