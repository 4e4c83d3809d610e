"""`part-du-chef compare`: is my v2 better than v1? With bot programs, paired over duplicate deals."""

from __future__ import annotations

import re

from .conftest import STARTER_KITS

KIT = STARTER_KITS / "python" / "bot.py"


def _difference(stdout: str) -> tuple[float, float]:
    """The score difference A - B and its 95% half-width, from the printed table."""
    row = next(line for line in stdout.splitlines() if "A - B" in line)
    mean, half = re.search(r"(-?\d+\.\d+) ± (\d+\.\d+)", row).groups()
    return float(mean), float(half)


def test_a_bot_program_compared_with_itself_has_an_interval_containing_zero(run, tmp_path):
    copy = tmp_path / "v2.py"
    copy.write_text(KIT.read_text())
    status, stdout, stderr = run("compare", str(KIT), str(copy), "--against", "random", "--deals", "4")
    assert status == 0, stderr
    mean, half = _difference(stdout)
    assert mean - half <= 0 <= mean + half
    assert "verdict: no difference between" in " ".join(stdout.split())
    assert "stopped after 3 of at most 4 deals" in " ".join(stdout.split())
    assert "forfeited" not in stderr


def test_a_bot_program_compared_with_random_is_significantly_better(run):
    status, stdout, stderr = run("compare", str(KIT), "random", "--against", "random,random", "--deals", "8")
    assert status == 0, stderr
    mean, half = _difference(stdout)
    assert mean - half > 0, stdout
    assert f"verdict: {KIT} is better than random" in " ".join(stdout.split())


def test_a_forfeiting_version_counts_its_forfeits_and_places_last_in_those_games(run, tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("import sys\nsys.exit(3)\n")
    status, stdout, stderr = run("compare", str(broken), "greedy", "--against", "random", "--deals", "2")
    assert status == 0, stderr
    assert "4 of 4" in stdout and "forfeited (crash: the bot exited (exit code 3))" in stderr
    assert "verdict:" in stdout
