"""The documented benchmark of the rating systems runs end to end (on a tiny, cheap arena) and reports every figure."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "rating_systems.py"
_spec = importlib.util.spec_from_file_location("rating_systems_bench", BENCH)
assert _spec is not None and _spec.loader is not None
rating_systems = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = rating_systems  # dataclasses look their module up there
_spec.loader.exec_module(rating_systems)


def test_the_benchmark_reports_every_system_on_the_same_stream() -> None:
    lines: list[str] = []
    cheap = "random,eps-0.75"
    argv = ["--games", "70", "--warmup", "10", "--no-cache", "--house", cheap, "--newcomers", cheap]
    results = rating_systems.main(argv, write=lines.append)
    assert [result.name for result in results] == ["arena", "arena rule 1", "fixed-K", "TrueSkill", "OpenSkill"]
    losses = {len(result.losses) for result in results}
    assert losses == {60}  # every system predicted the same games
    table = [line for line in lines if line.startswith("| ")]
    assert len(table) == 1 + len(results)
    arena = next(line for line in table if line.startswith("| arena |"))
    assert re.search(r"\| [+-]\d\.\d{4} ± \d\.\d{4} \|", arena)  # the paired interval against TrueSkill
    assert re.search(r"\| \d+\.\d% \|$", arena)  # the coverage of its intervals
    assert any(line.startswith("house random: mean rating") and "drift" in line for line in lines)
    assert any(line.startswith("coverage by kind, arena: eps-0.75 ") for line in lines)
    spreads = next(line for line in lines if line.startswith("margin spread between players of one kind:"))
    assert re.search(r"2 players \d+\.\d \(\d+ pairs\)", spreads)
