"""Every documented benchmark runs from a clean state: its databases made by itself, its processes' deaths reported.

Each benchmark runs as its documented command, with the smallest sizes, in a process of its own whose
DATABASE_URL is this test run's database: the benchmark's databases are `<test database>_bench...`,
created by the benchmark and dropped here afterwards, and its queues carry its process id.
`bench/leaderboard.py` measures with `wrk`, an outside program (`apt-get install -y wrk`): its test
needs it.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent

# (script and its smallest options, a line its report always prints)
BENCHMARKS = {
    "rated matches, no baseline": (
        ["rated_matches.py", "--matches", "6", "--rounds", "1", "--players", "6", "--baseline", "none"],
        "| ratio |",
    ),
    "submitted matches": (["submitted_matches.py", "--games", "2", "--unpacks", "1"], "ms/move"),
    "comparison speed": (["comparison_speed.py", "--games", "6", "--rounds", "1"], "| ratio |"),
    "queued matches with workers killed": (
        ["queued_matches.py", "--matches", "8", "--rate", "20", "--kill-every", "2", "--players", "6"],
        "deliveries",
    ),
    "arena newcomer": (["arena_newcomer.py", "--sizes", "2", "--runs", "1"], "| ratio |"),
    "arena placement": (
        [
            "arena_placement.py",
            *("--warmup", "1", "--repeats", "1", "--checkpoints", "2,4", "--replay-check", "--shares", "1", "--batch"),
        ],
        "| arena, fitted at once | all |",
    ),
    # Live: a real Celery worker and beat play the newcomers; the report comes from the ledger afterwards.
    "arena placement, live": (
        ["arena_placement.py", "--warmup", "1", "--repeats", "1", "--checkpoints", "2,4", "--replay-check", "--live"],
        "live: a Celery worker (concurrency 2) and beat",
    ),
    "bot round trip": (["bot_roundtrip.py", "--moves", "40", "--starts", "2"], "sandbox start-up"),
    "search budget": (
        ["search_budget.py", "--a", "4", "--b", "4", "--games", "2", "--workers", "1"],
        "CPU time per game",
    ),
    "match profile": (["match_profile.py", "--matches", "10", "--players", "6", "--top", "5"], "| phase |"),
    "web pages": (["web_pages.py", "--players", "2000", "--requests", "5"], "median / baseline"),
    "variance reduction": (
        [
            "variance_reduction.py",
            *("--deals", "4", "--orders", "3", "--pairs", "random:noisy-greedy-50", "--chance"),
            *("--draws", "2", "--draws-deals", "2"),
        ],
        "| pair | plain: total | its draws | its deal |",
    ),
    "table context": (
        ["table_context.py", "--bots", "random,greedy,noisy-greedy-45", "--games", "3"],
        "| bot | level over all tables | largest gap at one table |",
    ),
    "deal luck": (
        ["deal_luck.py", "--deals", "3", "--tables", "noisy-greedy-25:noisy-greedy-45+noisy-greedy-15"],
        "| noisy-greedy-25 | noisy-greedy-45 + noisy-greedy-15 |",
    ),
    "leaderboard intervals": (
        ["leaderboard_intervals.py", "--players", "2000", "--pages", "5", "--rounds", "1"],
        "SQL: rank intervals / one COUNT(*) of the board",
    ),
}


def _run(command: list[str], env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    script, *options = command
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *options],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.mark.system
@pytest.mark.parametrize("name", sorted(BENCHMARKS))
def test_a_documented_benchmark_runs_from_a_clean_state(name: str, clean_state: dict[str, str]) -> None:
    command, report_line = BENCHMARKS[name]
    done = _run(command, clean_state, timeout=240)
    assert done.returncode == 0, f"{name} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert report_line in done.stdout, done.stdout


@pytest.mark.system
def test_rated_matches_runs_the_baseline_commit_in_its_own_environment(clean_state: dict[str, str]) -> None:
    # The first run in a clone makes the baseline's virtual environment (var/bench/), about a minute.
    command = ["rated_matches.py", "--matches", "6", "--rounds", "1", "--players", "6", "--baseline", "95e61cf"]
    done = _run(command, clean_state, timeout=600)
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert "| baseline 95e61cf |" in done.stdout, done.stdout
    assert "this tree / baseline 95e61cf: end to end" in done.stdout, done.stdout
    assert "ledger replay, baseline 95e61cf:" in done.stdout, done.stdout


@pytest.mark.system
def test_a_worker_that_dies_stops_the_rated_matches_benchmark_with_its_last_lines(clean_state: dict[str, str]) -> None:
    # Celery refuses a negative pool size: the worker exits at once with a usage error.
    command = ["rated_matches.py", "--matches", "2", "--rounds", "1", "--players", "4", "--concurrency", "-1"]
    done = _run([*command, "--baseline", "none"], clean_state, timeout=240)
    assert done.returncode != 0
    assert "the worker stopped (exit 2); its last lines" in done.stderr, done.stderr
    assert "Invalid value for '-c' / '--concurrency'" in done.stderr, done.stderr


def _free_port_pair() -> int:
    """A port free with the next one (the baseline's), below the range the system hands out to clients."""
    for port in range(20000 + os.getpid() % 4000 * 2, 30000, 2):
        try:
            with socket.socket() as first, socket.socket() as second:
                first.bind(("127.0.0.1", port))
                second.bind(("127.0.0.1", port + 1))
        except OSError:
            continue
        return port
    raise AssertionError("no two free ports in a row")


@pytest.mark.system
def test_the_leaderboard_benchmark_serves_the_baseline_from_its_own_environment(clean_state: dict[str, str]) -> None:
    assert shutil.which("wrk"), "bench/leaderboard.py measures with wrk: make test installs it (apt-get install -y wrk)"
    # 50,000 players: the benchmark asks for pages up to the 1,000th of 50 rows.
    command = ["leaderboard.py", "--players", "50000", "--seconds", "2", "--rounds", "1", "--workers", "1"]
    command += ["--connections", "2", "--port", str(_free_port_pair()), "--baseline", "95e61cf"]
    done = _run(command, clean_state, timeout=600)
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert "20 requests answered alike by 2 tree(s)" in done.stderr + done.stdout, done.stderr[-3000:]
    assert "| request | p99 this / baseline | requests/s this / baseline |" in done.stdout, done.stdout


# The crowd's smallest run: a few seeded rows, 10 users for 15 s.
CROWD = ["crowd.py", "--users", "10", "--seconds", "15", "--baseline-seconds", "8", "--people", "20", "--bots", "8"]
CROWD += ["--history", "20", "--outage-seconds", "5"]


@pytest.mark.system
def test_the_crowd_on_the_whole_site_reports_ratios_to_one_user_alone_and_the_answers_during_an_outage(
    clean_state: dict[str, str], tmp_path: Path
) -> None:
    figures = tmp_path / "crowd.json"
    done = _run([*CROWD, "--mode", "outage", "--json", str(figures)], clean_state, timeout=400)
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert "| step | users | requests/s | p50 ms | p99 ms | p99 / alone |" in done.stdout, done.stdout
    assert "| 2xx | 500 | 503 | other 5xx | no answer | other 4xx |" in done.stdout, done.stdout
    report = json.loads(figures.read_text())
    base, (crowd,) = report["baseline"], report["steps"]
    assert base["users"] == 1 and crowd["users"] == 10
    # Every kind of user was there: pages, the API, a table's actions, an event stream, a match created with a key.
    for route in (
        "GET /leaderboard/[game]/",
        "GET /players/[id]/",
        "GET /matches/[id]/",
        "GET /api/leaderboards/[game]/",
        "POST /api/matches/[id]/actions/",
        "GET /events/tables/[id]/",
        "POST /api/matches/ (create)",
    ):
        assert route in base["routes"] or route in crowd["routes"], route
    for step in (base, crowd):
        assert step["pg_peak"] > 0 and step["overall"]["p99"] >= step["overall"]["p50"] > 0
    # The arena's bots play rated matches in the background all along.
    assert base["rated_matches"] + crowd["rated_matches"] > 0
    outage = report["outage"]
    assert outage["killed"] > 0 and outage["seconds"] >= 5
    assert {"500", "503", "2xx", "other_5xx", "no_answer"} <= outage.keys()
    # An outage answers 503 (with Retry-After), never 500: config/outages.py and the web processes' pool.
    assert outage["500"] == 0 and outage["other_5xx"] == 0, outage
    lost = outage["lost"]
    assert lost["exactly_once"] and lost["missing"] == 0 and lost["ratings_ok"], lost


@pytest.mark.system
def test_the_crowd_ramp_names_the_largest_crowd_held(clean_state: dict[str, str]) -> None:
    ramp = [*CROWD, "--mode", "ramp", "--steps", "2,4", "--step-seconds", "6", "--p99-limit", "60000"]
    done = _run(ramp, clean_state, timeout=400)
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert "| ramp: 2 users | 2 |" in done.stdout and "| ramp: 4 users | 4 |" in done.stdout, done.stdout
    assert "every step held (p99 < 60000 ms, 0 errors): at least 4 users" in done.stdout, done.stdout
