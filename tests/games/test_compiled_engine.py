"""The compiled build of the engine (mypyc, scripts/build_engine.py) against the pure Python modules.

Two fresh interpreters play the same thousands of seeded games, one on the compiled build and one with
PART_DU_CHEF_PURE=1, and must write byte-identical records. The build is made first when it is missing
or older than the sources (it takes about half a minute), so this check never silently passes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.part_du_chef import native

# It builds the engine and plays games in other processes.
pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[2]

# Random games on the State's fast path, random bots through observations, La Marianne, and a few
# games of the search bot, whose playouts run on the fast path.
PLAY = """
import hashlib, json, random, sys
from games.part_du_chef import State, record_of
from games.part_du_chef import state as state_module
from games.part_du_chef.bots.greedy import GreedyBot
from games.part_du_chef.bots.random_bot import RandomBot
from games.part_du_chef.bots.search import SearchBot
from games.part_du_chef.play import play_state
from games.part_du_chef.playout import play_random

digest = hashlib.sha256()
games = int(sys.argv[1])
for game in range(games):
    players = 2 + game % 4
    names = [f"p{seat}" for seat in range(players)]
    fast = play_random(State.new(players, game), random.Random(game))
    bots = [RandomBot(game * 8 + seat) for seat in range(players)]
    marianne = play_state(bots, game, marianne=True, marianne_seats=range(0, players, 2))
    for state in (fast, marianne):
        digest.update(json.dumps(record_of(state, names), sort_keys=True).encode())
        digest.update(repr(state.observation(0)).encode())
for game in range(4):
    search = [SearchBot(game * 8 + seat, playouts=4) if seat % 2 == 0 else GreedyBot() for seat in range(3)]
    digest.update(json.dumps(record_of(play_state(search, game, marianne=game % 2 == 0), ["a", "b", "c"])).encode())
print(json.dumps({"module": state_module.__file__, "games": games, "digest": digest.hexdigest()}))
"""


def ensure_build() -> None:
    if native.current_build() is None:
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build_engine.py")], cwd=ROOT, check=True)
    assert native.current_build() is not None, "the compiled build does not match the sources after building"


def play(pure: bool, games: int) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != native.PURE_VARIABLE}
    if pure:
        env[native.PURE_VARIABLE] = "1"
    out = subprocess.run(
        [sys.executable, "-c", PLAY, str(games)], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )
    result: dict[str, object] = json.loads(out.stdout)
    return result


def test_the_compiled_engine_writes_the_records_of_the_pure_python_one() -> None:
    ensure_build()
    compiled, pure = play(False, 2000), play(True, 2000)
    assert str(compiled["module"]).endswith(".so") and str(compiled["module"]).startswith(str(native.BUILD_DIR))
    assert str(pure["module"]).endswith("state.py")
    assert compiled["digest"] == pure["digest"]


def test_the_pure_python_modules_are_used_on_request() -> None:
    ensure_build()
    assert str(play(True, 1)["module"]).endswith("state.py")
    assert str(play(False, 1)["module"]).endswith(".so")


def test_a_build_older_than_its_sources_is_not_used() -> None:
    ensure_build()
    stamp = native.build_package_dir() / native.STAMP_NAME
    kept = stamp.read_text()
    try:
        stamp.write_text("0" * 64 + "\n")
        assert native.current_build() is None
        assert str(play(False, 1)["module"]).endswith("state.py")
    finally:
        stamp.write_text(kept)
    assert native.current_build() == native.build_package_dir()
