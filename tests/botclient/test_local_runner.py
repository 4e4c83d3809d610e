"""`part-du-chef simulate` plays bot programs and hosted bots against built-in bots, as the arena does."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from botclient.local import LocalBots
from botclient.match import MoveLog
from games.part_du_chef import cli, replay
from sandbox import SandboxConfig

from .conftest import BASE_UID, STARTER_KITS, STATE_DIR, _HostedKit, kit_zip, records

KIT_PY = STARTER_KITS / "python" / "bot.py"
KIT_JS = STARTER_KITS / "javascript" / "bot.js"


def _simulate_and_verify(run, tmp_path: Path, bot: str, *extra: str) -> list[dict]:
    out = tmp_path / "games.jsonl"
    status, stdout, stderr = run(
        "simulate", "--players", "3", "--bots", f"{bot},greedy,random", "--games", "2", "--out", str(out), *extra
    )
    assert status == 0, stderr
    assert "2 games of 3 players" in stdout and "greedy" in stdout
    assert "forfeited" not in stderr, stderr
    games = records(out)
    assert [game["players"] for game in games] == [[bot, "greedy", "random"]] * 2
    assert all(game["forfeits"] == [None, None, None] for game in games)
    for game in games:
        replay(game)
    status, stdout, _ = run("verify", str(out))
    assert status == 0
    assert stdout.strip() == "2 records verified: every one replays to its recorded chili, scores and ranks"
    status, stdout, _ = run("show", str(out), "--game", "2")
    # The seats line names the bot as given (rich wraps long lines at the terminal's width).
    assert status == 0 and f"0{bot}" in "".join(stdout.split()) and "Final scores" in stdout
    return games


def test_a_python_file_plays_against_built_in_bots_in_the_sandbox(run, tmp_path):
    _simulate_and_verify(run, tmp_path, str(KIT_PY))


def test_a_javascript_file_plays_against_built_in_bots_in_the_sandbox(run, tmp_path):
    if shutil.which("node") is None:
        pytest.fail("Node.js is required for the .js starter kit (make test installs it)")
    _simulate_and_verify(run, tmp_path, str(KIT_JS))


def test_a_zip_holding_main_py_plays_against_built_in_bots(run, tmp_path):
    _simulate_and_verify(run, tmp_path, str(kit_zip(tmp_path)))


def test_a_folder_holding_main_py_plays_against_built_in_bots(run, tmp_path):
    folder = tmp_path / "mybot"
    folder.mkdir()
    shutil.copyfile(KIT_PY, folder / "main.py")
    _simulate_and_verify(run, tmp_path, str(folder))


def test_a_hosted_bot_on_localhost_plays_over_http(run, tmp_path, hosted):
    _simulate_and_verify(run, tmp_path, hosted)
    assert _HostedKit.seen.count("start") == 2 and _HostedKit.seen.count("end") == 2
    assert _HostedKit.seen.count("act") > 10


def test_the_same_bot_plays_the_same_games_with_and_without_the_sandbox(run, tmp_path):
    sandboxed = _simulate_and_verify(run, tmp_path, str(KIT_PY))
    bare_out = tmp_path / "bare.jsonl"
    status, _, stderr = run(
        "simulate",
        "--players",
        "3",
        "--bots",
        f"{KIT_PY},greedy,random",
        "--games",
        "2",
        "--out",
        str(bare_out),
        "--no-sandbox",
    )
    assert status == 0, stderr
    assert "--no-sandbox: bot programs run bare" in stderr
    assert [g["actions"] for g in records(bare_out)] == [g["actions"] for g in sandboxed]


def test_verbose_shows_what_the_bot_writes_to_stderr_as_it_plays(run, tmp_path):
    chatty = tmp_path / "chatty.py"
    chatty.write_text(
        KIT_PY.read_text().replace(
            "def choose_cut(obs: dict) -> dict:",
            "def choose_cut(obs: dict) -> dict:\n    print(f'cutting pizza {obs[\"pizza\"]}', file=sys.stderr)",
        )
    )
    assert "import sys" in chatty.read_text()
    status, _, stderr = run("simulate", "--players", "2", "--bots", f"{chatty},greedy", "--verbose")
    assert status == 0, stderr
    assert f"[{chatty}] cutting pizza 0" in stderr and f"[{chatty}] cutting pizza 4" in stderr
    status, _, quiet = run("simulate", "--players", "2", "--bots", f"{chatty},greedy")
    assert status == 0 and "cutting pizza" not in quiet


@pytest.mark.parametrize(
    ("bot", "message"),
    [
        ("./no-such-bot.py", "./no-such-bot.py: no such file or folder"),
        ("ftp://example.org/bot", "only http and https"),
        ("http://user:pw@localhost:1/", "must not carry a user name or password"),
        (
            "nobody",
            "unknown bot 'nobody': built-in bots are random, greedy, search-fast, search, and noisy-greedy-P "
            "(greedy with P% random moves, P from 1 to 99); or a bot program",
        ),
    ],
)
def test_a_bot_that_cannot_be_played_is_one_line_naming_the_problem(run, bot, message):
    status, stdout, stderr = run("simulate", "--players", "2", "--bots", f"{bot},greedy")
    assert status == 2 and stdout == ""
    assert stderr.startswith("error: ") and message in stderr and stderr.count("\n") == 1, stderr


def test_a_file_that_is_not_a_bot_program_is_refused_by_name(run, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    status, _, stderr = run("simulate", "--players", "2", "--bots", f"{notes},greedy")
    assert status == 2 and "'notes.txt' is not a bot program: a bot is one source file (.py, .js, .c," in stderr
    folder = tmp_path / "empty"
    folder.mkdir()
    status, _, stderr = run("simulate", "--players", "2", "--bots", f"{folder},greedy")
    assert status == 2 and "no entry file (main.py, main.c, ...) at the top level" in stderr


def test_a_program_that_exits_at_once_forfeits_its_seat_and_greedy_plays_it(run, tmp_path):
    status, _, stderr = run("simulate", "--players", "2", "--bots", f"{kit_zip(tmp_path, main='x = 1')},greedy")
    assert status == 0, stderr
    assert "seat 0" in stderr and "forfeited (crash: the bot exited (exit code 0))" in stderr, stderr


def test_a_failure_before_ready_is_shown_at_start_and_its_start_up_time_is_no_decision_s_latency(run, tmp_path):
    bot = kit_zip(tmp_path, main="x = 1")
    status, _, stderr = run("simulate", "--players", "2", "--bots", f"{bot},greedy", "--verbose")
    assert status == 0 and "seat 0] at start: crash: the bot exited (exit code 0)" in stderr, stderr
    assert "turn 0" not in stderr
    log = MoveLog(0, 0, "crash", 812.5, "the bot exited", at_start=True).to_json()
    assert (log["turn"], log["at"], log["latency_ms"], log["start_ms"]) == (None, "start", None, 812.5)


def test_the_rules_package_alone_answers_a_path_with_a_hint_to_use_part_du_chef(capsys):
    status = cli.main(["simulate", "--players", "2", "--bots", "./mybot.py,greedy"])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "use the `part-du-chef` command" in err


def test_the_ladder_takes_a_bot_program_among_its_three_bots(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # any folder: the bot named relative to it
    shutil.copyfile(KIT_PY, tmp_path / "kit.py")
    status, stdout, stderr = run("ladder", "--bots", "kit.py,greedy,random", "--games", "12", "--seed", "2")
    assert status == 0, stderr
    assert "12 four-player games" in stdout and "Head to head" in stdout
    assert "│ kit.py " in stdout and "│ greedy " in stdout and "│ random " in stdout
    assert "forfeited" not in stderr


@pytest.mark.system
def test_where_the_sandbox_cannot_start_the_command_says_why_and_offers_no_sandbox(capsys):
    broken = SandboxConfig(bwrap="/nonexistent/bwrap", state_dir=STATE_DIR, base_uid=BASE_UID, slots=1)
    argv = ["simulate", "--players", "2", "--bots", f"{KIT_PY},greedy"]
    status = cli.main(argv, resolvers=[LocalBots(sandbox_config=broken)], prog="part-du-chef")
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert "the sandbox cannot start here (bubblewrap not found at /nonexistent/bwrap" in err
    assert "--no-sandbox runs bot programs bare" in err
    status = cli.main([*argv, "--no-sandbox"], resolvers=[LocalBots(sandbox_config=broken)], prog="part-du-chef")
    assert status == 0
    assert "--no-sandbox: bot programs run bare" in capsys.readouterr().err
