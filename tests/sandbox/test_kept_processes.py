"""One sandboxed process plays a bot's games one after another when the bot asks for it (more_games)."""

from __future__ import annotations

import select
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from botclient import SandboxedBot
from botclient.match import MatchPlay, play_with_sessions
from games.part_du_chef import State
from games.part_du_chef.bots import get_bot
from sandbox import Sandbox
from sandbox.slots import SlotPool, processes_of

from .conftest import STARTER_KITS, TEST_BASE_UID, TEST_SLOTS

# Counts the games its process has started and says so on stderr; crashes in the middle of the game
# whose number is in crash_on.txt (the count is the process's own memory: a fresh process starts at 1).
COUNTING_KIT = """import json, sys
import kit

crash_on = int(open("/bot/crash_on.txt").read())
games = 0
moves = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        games += 1
        moves = 0
        print(f"game {games} of this process", file=sys.stderr, flush=True)
        print(json.dumps({"type": "ready", "more_games": %s}), flush=True)
        continue
    if msg["type"] == "end":
        continue
    moves += 1
    if games == crash_on and moves == 2:
        sys.exit("crashing on purpose in the middle of a game")
    obs = msg["observation"]
    action = kit.choose_cut(obs) if obs["phase"] == "cut" else kit.choose_take(obs)
    print(json.dumps(action), flush=True)
"""


def counting_bot(folder: Path, *, crash_on: int = 0, more_games: bool = True) -> Path:
    folder.mkdir()
    shutil.copy(STARTER_KITS / "python" / "bot.py", folder / "kit.py")
    (folder / "main.py").write_text(COUNTING_KIT % ("True" if more_games else "False"))
    (folder / "crash_on.txt").write_text(str(crash_on))
    return folder


def play_one(sandbox: Sandbox, files: Path, seed: int, **kwargs: Any) -> tuple[MatchPlay, str]:
    """One 2-player game against greedy, and the first line the bot wrote to stderr in it."""
    bot = SandboxedBot(files, sandbox=sandbox, move_ms=2000, bank_ms=2000, **kwargs)
    play = play_with_sessions(State.new(2, seed), [bot, get_bot("greedy", seed=seed)])
    return play, bot.stderr_log.splitlines()[0]


def wait_for(condition: Callable[[], bool], timeout_s: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def stdout_waiting(sandbox: Sandbox) -> bool:
    """Whether every kept process has written to stdout since its last game."""
    poller = select.poll()
    kept = sandbox.kept.processes()
    for process in kept:
        assert process.popen.stdout is not None
        poller.register(process.popen.stdout.fileno(), select.POLLIN)
    return len(poller.poll(0)) == len(kept)


def test_one_process_plays_several_games_and_a_crash_ends_only_the_game_it_happens_in(sandbox, tmp_path):
    sandbox.kept.close_all()
    files = counting_bot(tmp_path / "counting", crash_on=3)
    games = [play_one(sandbox, files, seed) for seed in (101, 102, 103, 104, 105)]
    # Games 1 to 3 in one process; the crash ends game 3 only; game 4 starts a fresh process.
    assert [said for _, said in games] == [f"game {n} of this process" for n in (1, 2, 3, 1, 2)]
    assert [play.forfeited[0] for play, _ in games] == [False, False, True, False, False]
    crash = [move for move in games[2][0].moves if move.seat == 0][-1]
    assert crash.status == "crash" and "crashing on purpose" in crash.stderr
    assert all(play.state.is_over for play, _ in games)
    # The process of games 4 and 5 waits for a next game; closing the kept ones leaves nothing behind.
    assert len(sandbox.kept) == 1
    sandbox.kept.close_all()
    for uid in range(TEST_BASE_UID, TEST_BASE_UID + TEST_SLOTS):
        assert processes_of(uid) == []


def test_a_process_never_plays_two_games_of_one_deal(sandbox, tmp_path):
    sandbox.kept.close_all()
    files = counting_bot(tmp_path / "counting")
    # Deal 7 twice (another table's game of the deal, or a rotation), then deal 8.
    said = [play_one(sandbox, files, seed)[1] for seed in (7, 7, 8)]
    # Either process may take deal 8: each has played deal 7 only.
    assert said == ["game 1 of this process", "game 1 of this process", "game 2 of this process"]
    assert len(sandbox.kept) == 2
    sandbox.kept.close_all()


def test_a_bot_that_does_not_ask_for_more_games_starts_afresh_each_game(sandbox, tmp_path):
    sandbox.kept.close_all()
    files = counting_bot(tmp_path / "counting", more_games=False)
    assert [play_one(sandbox, files, seed)[1] for seed in (1, 2)] == ["game 1 of this process"] * 2
    assert len(sandbox.kept) == 0
    for uid in range(TEST_BASE_UID, TEST_BASE_UID + TEST_SLOTS):
        assert processes_of(uid) == []


def test_another_bots_game_never_gets_a_kept_process(sandbox, tmp_path):
    sandbox.kept.close_all()
    files = counting_bot(tmp_path / "counting")
    play_one(sandbox, files, 1)
    twin = counting_bot(tmp_path / "twin")  # the same code in other files: another bot
    assert play_one(sandbox, twin, 2)[1] == "game 1 of this process"
    # The same files seated for another owner's version.
    assert play_one(sandbox, files, 3, reuse_key="another version")[1] == "game 1 of this process"
    # Three processes wait now; the oldest went first to stay within the kept capacity.
    assert len(sandbox.kept) == sandbox.kept.capacity == 2
    sandbox.kept.close_all()


def test_a_kept_process_that_writes_between_games_is_replaced(sandbox, tmp_path):
    sandbox.kept.close_all()
    files = counting_bot(tmp_path / "chatty")
    main = files / "main.py"
    # After "end" it writes a line nobody asked for: the next game must not read it as an answer.
    main.write_text(
        main.read_text().replace(
            '    if msg["type"] == "end":\n        continue',
            '    if msg["type"] == "end":\n        print("{}", flush=True)\n        continue',
        )
    )
    first, _ = play_one(sandbox, files, 1)
    # Wait until the line is written (it comes whenever the bot gets to it), wherever it went.
    assert wait_for(lambda: len(sandbox.kept) == 0 or stdout_waiting(sandbox))
    second, said = play_one(sandbox, files, 2)
    assert first.forfeited[0] is False and second.forfeited[0] is False
    assert said == "game 1 of this process"
    sandbox.kept.close_all()


def test_an_idle_kept_process_lends_its_slot_to_a_bot_that_finds_no_free_one(sandbox, tmp_path):
    sandbox.kept.close_all()
    files = counting_bot(tmp_path / "counting")
    play_one(sandbox, files, 1)
    (kept,) = sandbox.kept.processes()
    # Another worker process claims slots: every free one first, the kept process's last.
    other = SlotPool(sandbox.pool.lock_dir, TEST_BASE_UID, TEST_SLOTS)
    claimed = [other.acquire(wait_s=0) for _ in range(TEST_SLOTS)]
    try:
        assert [slot.index for slot in claimed][-1] == kept.slot.index
        assert kept.slot.index not in [slot.index for slot in claimed[:-1]]
        assert kept.popen.wait(timeout=20) is not None  # the claimer killed the idle process
        for slot in claimed[:-1]:
            slot.release()
        # Its next game starts a fresh process on a free slot; the claimer's slot is left alone.
        assert play_one(sandbox, files, 2)[1] == "game 1 of this process"
        assert claimed[-1].held
    finally:
        for slot in claimed:
            slot.release()
    sandbox.kept.close_all()
    for uid in range(TEST_BASE_UID, TEST_BASE_UID + TEST_SLOTS):
        assert processes_of(uid) == []
