"""The bench command measures the naive engine in the same run and prints the ratio to it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from games.part_du_chef import benchmark
from games.part_du_chef.cli import main

# A stand-in yardstick with the naive engine's interface: a game that does a fixed amount of work.
SLOW_ENGINE = """
def random_game(players, seed):
    total = 0
    for i in range(20000):
        total += (i * seed + players) % 7
    return [total] * players
"""


def bench(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    status = main(["bench", "--games", "30", "--runs", "2", *argv])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def test_the_ratio_to_the_naive_engine_comes_from_the_same_rounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = tmp_path / "naive_engine.py"
    baseline.write_text(SLOW_ENGINE)
    status, lines, _ = bench(capsys, "--baseline", str(baseline))
    assert status == 0
    assert len(lines) == 4
    rounds = [re.search(r"naive engine ([\d,]+) games/s: ([\d.]+)x and ([\d.]+)x", line) for line in lines[:2]]
    assert all(rounds)
    ratio = re.fullmatch(
        r"ratio to the naive engine \(([\d,]+) games/s\), medians of 2 interleaved rounds, .*: "
        r"engine ([\d.]+)x, random bots through observations ([\d.]+)x",
        lines[2],
    )
    assert ratio is not None
    engine_rate = float(re.findall(r"([\d,]+) games/s", lines[3])[-1].replace(",", ""))
    naive_rate = float(ratio.group(1).replace(",", ""))
    # The printed ratio is the median of the rounds' own ratios, near the ratio of the medians.
    assert float(ratio.group(2)) == pytest.approx(engine_rate / naive_rate, rel=0.5)
    assert float(ratio.group(2)) > 1


def test_without_the_naive_engine_it_says_so_and_still_ends_with_the_rate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere" / "naive_engine.py"
    status, lines, err = bench(capsys, "--baseline", str(missing))
    assert status == 0 and err == ""
    assert lines[2] == f"no naive engine at {missing}: no ratio measured (give the naive engine's path with --baseline)"
    assert re.fullmatch(
        r"4-player random games, play \+ scoring, one core \(CPU time\), median of 2 runs: [\d,]+ games/s", lines[3]
    )


def test_a_broken_naive_engine_is_named_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "naive_engine.py"
    broken.write_text("def random_game(:\n")
    status, lines, _ = bench(capsys, "--baseline", str(broken))
    assert status == 0
    assert lines[2].startswith(f"{broken} fails to import: ")
    failing = tmp_path / "failing.py"
    failing.write_text("def random_game(players, seed):\n    raise RuntimeError('out of pizza')\n")
    status, lines, _ = bench(capsys, "--baseline", str(failing))
    assert status == 0
    assert lines[2].startswith(f"{failing}: random_game(4, 0) fails: RuntimeError('out of pizza')")
    (tmp_path / "other.py").write_text("x = 1\n")
    with pytest.raises(benchmark.BaselineError, match="has no random_game"):
        benchmark.load_baseline(tmp_path / "other.py")


def test_the_rounds_run_pinned_to_one_core_and_the_affinity_comes_back() -> None:
    before = os.sched_getaffinity(0)
    with benchmark.one_core() as core:
        assert core is not None
        assert os.sched_getaffinity(0) == {core}
    assert os.sched_getaffinity(0) == before


def test_the_default_naive_engine_ships_with_the_package() -> None:
    assert benchmark.DEFAULT_BASELINE == Path(benchmark.__file__).resolve().parent / "naive_engine.py"
    assert callable(benchmark.load_baseline(benchmark.DEFAULT_BASELINE).random_game)


# It runs the command in another process.
@pytest.mark.system
def test_a_copy_of_the_checkout_with_nothing_beside_it_prints_the_ratio(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=root, check=True, capture_output=True).stdout
    clone = tmp_path / "clone"
    for name in tracked.decode().split("\0"):
        if name and (root / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / name, clone / name)
    assert [path.name for path in tmp_path.iterdir()] == ["clone"]
    out = subprocess.run(
        [sys.executable, "-m", "games.part_du_chef", "bench", "--games", "30", "--runs", "1"],
        cwd=clone,
        env={"PATH": "/usr/bin:/bin"},
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert re.search(r"^ratio to the naive engine \([\d,]+ games/s\), .*: engine [\d.]+x", out, re.MULTILINE), out
    assert "no ratio measured" not in out
