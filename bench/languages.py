"""Per language: the build time of its starter kit and its per-decision round trip, against in-process work.

For each language of sandbox/languages.py the starter kit is prepared as an upload is (unpacked and,
for a compiled language, built in the sandbox), several times afresh, interleaved by language; the
baseline of the build column is one sandboxed process run to its end (`/usr/bin/true`, staged like a
bot), timed in the same rounds. Then every kit answers the same observations (recorded from 4-player
games between greedy bots) through protocol v1 in the sandbox, interleaved decision by decision with
the same decisions made in process (the Python kit's functions for the Python and JavaScript kits,
which play its strategy; a Python rendering of the compiled kits' simple strategy for the others), so
machine noise hits every column alike.

    python bench/languages.py [--moves 1000] [--builds 3] [--markdown]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from botclient import SandboxedBot  # noqa: E402
from games.part_du_chef import State  # noqa: E402
from games.part_du_chef.bots import get_bot  # noqa: E402
from sandbox import Sandbox, SandboxConfig  # noqa: E402
from sandbox.build import prepare_bot  # noqa: E402

KITS = ROOT / "starter-kits"
LANGUAGES = {
    "python": KITS / "python" / "bot.py",
    "javascript": KITS / "javascript" / "bot.js",
    "c": KITS / "c" / "main.c",
    "cpp": KITS / "cpp" / "main.cpp",
    "rust": KITS / "rust" / "main.rs",
    "go": KITS / "go" / "main.go",
    "java": KITS / "java" / "Bot.java",
}


def load_python_kit() -> Any:
    spec = importlib.util.spec_from_file_location("starter_kit", LANGUAGES["python"])
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def simple_decide(observation: dict[str, Any]) -> dict[str, Any]:
    """The compiled kits' strategy in Python: cut evenly, take the first portion nobody took."""
    if observation["phase"] == "cut":
        players = observation["players"]
        return {"type": "cut", "cuts": [i * 13 // players for i in range(players)], "marianne": None}
    portion = next(p["index"] for p in observation["portions"] if p["taken_by"] is None)
    return {"type": "take", "portion": portion, "eat": [], "steals": [], "marianne": None}


def observations(count: int) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    seed = 0
    while len(found) < count:
        state = State.new(4, seed, marianne=True)
        bots = [get_bot("greedy", seed=seat) for seat in range(4)]
        while not state.is_over and len(found) < count:
            seat = state.to_act
            assert seat is not None
            observation = state.observation(seat)
            found.append(observation.to_json())
            state.apply(bots[seat].act(observation))
        seed += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1000, help="decisions per language")
    parser.add_argument("--builds", type=int, default=3, help="fresh builds per language")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()

    sandbox = Sandbox(SandboxConfig(state_dir=Path("/run/arena-bench-languages"), base_uid=64000, slots=8))
    sandbox.check()
    kit = load_python_kit()
    work = Path(tempfile.mkdtemp(prefix="bench-languages-"))
    try:
        builds: dict[str, list[float]] = {name: [] for name in LANGUAGES}
        runs: list[float] = []
        prepared: dict[str, Path] = {}
        empty = work / "empty"
        empty.mkdir()
        for round_ in range(args.builds):
            began = time.perf_counter()
            sandbox.run(empty, ["/usr/bin/true"], timeout_s=30)
            runs.append(time.perf_counter() - began)
            for name, source in LANGUAGES.items():  # interleaved: noise hits every language alike
                dest = work / f"{name}-{round_}"
                began = time.perf_counter()
                prepare_bot(source, dest, sandbox)
                builds[name].append(time.perf_counter() - began)
                prepared[name] = dest
        sample = observations(args.moves)
        sessions = {
            name: SandboxedBot(folder, sandbox=sandbox, move_ms=10000, bank_ms=0, start_ms=20000)
            for name, folder in prepared.items()
        }
        for session in sessions.values():
            session.start(0, 4, {"marianne": True})
        remote: dict[str, list[float]] = {name: [] for name in LANGUAGES}
        local: dict[str, list[float]] = {name: [] for name in LANGUAGES}
        for observation in sample:
            for name, session in sessions.items():
                decide = (
                    (lambda obs: kit.choose_cut(obs) if obs["phase"] == "cut" else kit.choose_take(obs))
                    if name in ("python", "javascript")
                    else simple_decide
                )
                began = time.perf_counter()
                decide(json.loads(json.dumps(observation)))
                local[name].append((time.perf_counter() - began) * 1000)
                began = time.perf_counter()
                result = session.act(observation)
                remote[name].append((time.perf_counter() - began) * 1000)
                if not result.ok:
                    raise SystemExit(f"{name}: {result.status}: {result.error}")
        for session in sessions.values():
            session.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    base_build = statistics.median(runs)
    rows = []
    for name in LANGUAGES:
        build = statistics.median(builds[name])
        trip, inproc = statistics.median(remote[name]), statistics.median(local[name])
        rows.append((name, build, build / base_build, trip, inproc, trip / inproc))
    if args.markdown:
        print(
            "| language | prepare and build (median s) | ÷ one sandboxed process run | round trip (median ms) "
            "| same decision in process (ms) | ratio |"
        )
        print("|---|---:|---:|---:|---:|---:|")
        for name, build, build_ratio, trip, inproc, ratio in rows:
            print(f"| {name} | {build:.3f} | {build_ratio:.2f}× | {trip:.3f} | {inproc:.4f} | {ratio:.1f}× |")
        print()
        print(
            f"{args.builds} fresh builds and {len(sample)} decisions per language; one sandboxed process run: "
            f"median {base_build * 1000:.0f} ms."
        )
    else:
        for name, build, build_ratio, trip, inproc, ratio in rows:
            print(
                f"{name:10s} build {build:6.2f} s ({build_ratio:5.1f}x)  trip {trip:7.3f} ms  "
                f"in process {inproc:7.4f} ms  ({ratio:6.0f}x)"
            )


if __name__ == "__main__":
    main()
