"""The command line: each subcommand, and one-line errors with exit status 2 for every bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from games.part_du_chef import simulation
from games.part_du_chef.cli import main
from games.part_du_chef.record import discrepancies

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("simulated") / "games.jsonl"
    status = main(
        ["simulate", "--players", "4", "--bots", "greedy,random,search,random", "--games", "3", "--seed", "11",
         "--marianne", "--out", str(out)]
    )  # fmt: skip
    assert status == 0
    return out.read_text()


@pytest.fixture
def games_file(simulated: str, tmp_path: Path) -> Path:
    """A fresh copy of three simulated games, free to edit."""
    out = tmp_path / "games.jsonl"
    out.write_text(simulated)
    return out


def test_simulate_writes_one_verified_record_per_game_and_a_summary_per_bot(
    games_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [json.loads(line) for line in games_file.read_text().splitlines()]
    assert [r["seed"] for r in records] == [11, 12, 13]
    for record in records:
        assert record["players"] == ["greedy", "random", "search", "random"]
        assert record["options"]["marianne"] is True
        assert discrepancies(record) == []
    status, out, _ = run(capsys, "simulate", "--players", "3", "--bots", "greedy", "--games", "2", "--seed", "4")
    assert status == 0
    assert "2 games of 3 players" in out
    # Two games with greedy in all three seats: six seats.
    assert re.search(r"│ greedy\s+│\s+6 │", out)


def test_simulate_is_reproducible_from_its_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for out in (a, b):
        assert run(capsys, "simulate", "--players", "5", "--bots", "random", "--games", "4", "--seed", "2",
                   "--out", str(out))[0] == 0  # fmt: skip
    assert a.read_text() == b.read_text()


def test_the_summary_averages_each_bots_scores(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g.jsonl"
    status, text, _ = run(capsys, "simulate", "--players", "2", "--bots", "greedy,random", "--games", "5",
                          "--seed", "30", "--out", str(out))  # fmt: skip
    assert status == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    for seat, name in enumerate(("greedy", "random")):
        mean = sum(r["scores"][seat]["total"] for r in records) / len(records)
        row = next(line for line in text.splitlines() if f" {name} " in line)
        assert f"{mean:.1f} ±" in row


def test_verify_accepts_the_records_simulate_wrote(games_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "verify", str(games_file))
    assert status == 0
    assert "3 records verified" in out
    assert err == ""


def test_verify_catches_a_hand_edited_record_and_names_its_line(
    games_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = games_file.read_text().splitlines()
    edited = json.loads(lines[1])
    edited["scores"][0]["total"] += 1
    lines[1] = json.dumps(edited)
    games_file.write_text("\n".join(lines) + "\n")
    status, out, err = run(capsys, "verify", str(games_file))
    assert status == 2
    assert out.splitlines() == [
        f"{games_file}:2: scores[0]: the record has {edited['scores'][0]!r}, the replay gives "
        f"{ {**edited['scores'][0], 'total': edited['scores'][0]['total'] - 1}!r}"
    ]
    assert "1 of 3 records do not verify" in err


def test_verify_reports_every_bad_line_of_a_file(games_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = games_file.read_text().splitlines()
    moved = json.loads(lines[0])
    moved["actions"][2]["portion"] = 9
    games_file.write_text("\n".join([json.dumps(moved), "{not json", lines[1], "[1, 2]", lines[2]]) + "\n")
    status, out, _ = run(capsys, "verify", str(games_file))
    assert status == 2
    reported = out.splitlines()
    assert reported[0].startswith(f"{games_file}:1: action 2 (take by seat")
    assert "there is no portion 9" in reported[0]
    assert reported[1].startswith(f"{games_file}:2: not valid JSON")
    assert reported[2] == f"{games_file}:4: a record must be a JSON object"
    assert len(reported) == 3


def test_show_draws_every_pizza_each_take_and_the_score_table(
    games_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(games_file.read_text().splitlines()[1])
    status, out, _ = run(capsys, "show", str(games_file), "--game", "2")
    assert status == 0
    for pizza in range(1, 6):
        assert f"Pizza {pizza}: chef seat {(pizza - 1) % 4}" in out
    takes = [a for a in record["actions"] if a["type"] == "take"]
    assert len(re.findall(r"seat \d \(\w+\) takes [A-D]: keeps", out)) == len(takes) == 20
    assert out.count("steals") == sum(len(a["steals"]) for a in takes)
    assert out.count("La Marianne: gives") == sum(a["marianne"] is not None for a in record["actions"])
    assert "Final scores" in out
    for score in record["scores"]:
        assert re.search(rf"│\s+{score['seat']} │ \w+\s+│\s+{score['majority']} │.*│\s+{score['total']} │", out)


def test_show_marks_the_cut_points_over_the_ring(games_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(games_file.read_text().splitlines()[0])
    status, out, _ = run(capsys, "show", str(games_file))
    assert status == 0
    first_cut = record["actions"][0]["cuts"]
    header = next(line for line in out.splitlines() if "|" in line and " 12" in line)
    assert sorted(int(p) for p in re.findall(r"\|(\d+)", header)) == first_cut


def test_bench_ends_with_the_rate(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "bench", "--games", "40", "--runs", "3")
    assert status == 0
    lines = out.splitlines()
    # A line per round, the ratio to the naive engine (or why there is none), the rate.
    assert len(lines) == 5
    assert re.fullmatch(
        r"4-player random games, play \+ scoring, one core \(CPU time\), median of 3 runs: [\d,]+ games/s", lines[-1]
    )


def test_bench_think_reports_a_bots_cpu_time_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "bench", "--think", "greedy", "--games", "3", "--players", "3")
    assert status == 0
    assert re.fullmatch(
        r"greedy among random bots, 3 3-player games: CPU time per game median 0\.\d{3} s, max \d+\.\d{3} s, "
        r"mean \d+\.\d{3} s\n",
        out,
    )


@pytest.mark.system
def test_ladder_mixes_the_three_bots_and_reports_head_to_head(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "ladder", "--games", "12", "--seed", "3", "--workers", "1", "--playouts", "2")
    assert status == 0
    # How long it will take is said first, before the progress and the results.
    assert re.match(
        r"ladder: 12 games, about \d+ s of CPU: about \d+ s on 1 free core \(timed on one game of each table\)\n", err
    )
    assert "12 four-player games, seeds 3..14" in out
    for name in ("search", "greedy", "random"):
        row = next(line for line in out.splitlines() if line.startswith(f"│ {name} ") and "%" in line)
        # Twelve games, each bot twice at a table in four of them: sixteen seats.
        assert "│    16 │" in row
    assert "Head to head" in out


@pytest.mark.system
def test_the_ladder_gives_the_same_results_on_one_process_or_two() -> None:
    one = simulation.ladder(8, 40, workers=1, search_playouts=2)
    two = simulation.ladder(8, 40, workers=2, search_playouts=2)
    estimates: list[float] = []
    timed = simulation.ladder(8, 40, workers=2, search_playouts=2, on_estimate=estimates.append)
    assert [(r.seed, r.names, r.totals, r.ranks) for r in one] == [(r.seed, r.names, r.totals, r.ranks) for r in two]
    # Timing one game of each table first changes no result.
    assert [(r.seed, r.names, r.totals, r.ranks) for r in timed] == [(r.seed, r.names, r.totals, r.ranks) for r in one]
    assert len(estimates) == 1 and estimates[0] > 0
    assert [r.names for r in one] == [simulation.ladder_lineup(game) for game in range(8)]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--bots", "minimax"], "unknown bot 'minimax'"),
        (["simulate", "--players", "6"], "played by 2 to 5 players, not 6"),
        (["simulate", "--players", "3", "--bots", "random,greedy"], "--bots names 2 bots for 3 players"),
        (["simulate", "--games", "0"], "--games must be at least 1"),
        (["simulate", "--players", "four"], "invalid int value: 'four'"),
        (["verify", "/no/such/games.jsonl"], "/no/such/games.jsonl: no such file"),
        (["show", "/no/such/games.jsonl"], "/no/such/games.jsonl: no such file"),
        (["bench", "--players", "1"], "played by 2 to 5 players, not 1"),
        (["ladder", "--workers", "0"], "--workers must be at least 1"),
        (["bench", "--think", "alphazero"], "unknown bot 'alphazero'"),
        (["simulate", "--playouts", "0"], "--playouts must be at least 1"),
        (["simulate", "--out", "/no/such/dir/games.jsonl"], "cannot write /no/such/dir/games.jsonl"),
        (["simulate", "--out", "/dev/full"], "cannot write /dev/full: No space left on device"),
        (["juggle"], "invalid choice: 'juggle'"),
        ([], "required: COMMAND"),
    ],
)
def test_bad_arguments_get_a_one_line_error_and_exit_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert message in err


def test_show_refuses_a_corrupt_record_in_one_line(games_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(games_file.read_text().splitlines()[0])
    record["pizzas"][0][0]["olives"] = 9
    games_file.write_text(json.dumps(record) + "\n{oops\n")
    status, _, err = run(capsys, "show", str(games_file))
    assert status == 2
    assert err.startswith(f"error: {games_file}:1: pizza 1, position 0: the record has") and err.count("\n") == 1
    status, _, err = run(capsys, "show", str(games_file), "--game", "2")
    assert (status, err) == (2, f"error: {games_file}:2: not valid JSON (Expecting property name enclosed in "
                                "double quotes at column 2)\n")  # fmt: skip
    status, _, err = run(capsys, "show", str(games_file), "--game", "3")
    assert (status, err) == (2, f"error: {games_file} holds 2 records: there is no game 3\n")


@pytest.mark.system
def test_the_module_runs_as_a_program_without_a_traceback_on_bad_input(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\xff\xfe not text\n")
    for argv, message in (
        (["simulate", "--players", "6"], "error: La Part du Chef is played by 2 to 5 players, not 6\n"),
        (["verify", str(bad)], f"error: {bad} is not UTF-8 text: records are JSON, one per line\n"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "games.part_du_chef", *argv], cwd=ROOT, capture_output=True, text=True, timeout=60
        )
        assert (done.returncode, done.stdout, done.stderr) == (2, "", message)


def test_show_prints_player_names_as_they_are(games_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(games_file.read_text().splitlines()[0])
    record["players"] = ["[/red]", "[bold]x", ":pizza:", "Zoë"]
    games_file.write_text(json.dumps(record) + "\n")
    status, out, _ = run(capsys, "show", str(games_file))
    assert status == 0
    assert "Seats: 0 [/red], 1 [bold]x, 2 :pizza:, 3 Zoë" in out


def test_a_long_run_whose_standard_error_is_not_a_terminal_prints_plain_progress_lines() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.part_du_chef", "simulate", "--players", "3", "--games", "25"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = done.stderr.splitlines()
    assert lines and re.fullmatch(r"simulate: 25/25 \(100%\) in \d+ s", lines[-1]), done.stderr
    assert "\x1b[" not in done.stderr  # no terminal control codes in a log
