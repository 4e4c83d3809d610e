"""Hostile bots forfeit locally exactly as in the arena (tests/submissions/test_hostile_matches.py): same status, same
message, greedy finishing the seat, nothing left running; and the sandbox contains them the same way."""

from __future__ import annotations

import json

import pytest

from games.part_du_chef import replay
from tests.hostile_outcomes import HOSTILE_OUTCOMES

from .conftest import HOSTILE, SANDBOX_BOTS, kit_zip, records


@pytest.mark.parametrize(("name", "status", "hint"), HOSTILE_OUTCOMES)
def test_a_hostile_bot_forfeits_locally_with_the_arenas_status_and_greedy_finishes_its_game(
    run, tmp_path, name, status, hint
):
    out = tmp_path / "games.jsonl"
    bot = str(SANDBOX_BOTS / f"{name}.py")
    # As in the arena test: the memory hog gets the full bank, to reach the memory limit rather than the clock.
    code, _, stderr = run(
        "simulate",
        "--players",
        "2",
        "--bots",
        f"{bot},greedy",
        "--out",
        str(out),
        "--verbose",
        fast=name != "memory_hog",
    )
    assert code == 0, stderr
    (game,) = records(out)
    reason = game["forfeits"][0]
    assert reason is not None and reason.startswith(f"{status}: "), reason
    assert game["forfeits"][1] is None
    # The arena's verdict, as a match of the arena writes it: the forfeiter placed last whatever its
    # total, and from its failure on, the stand-in deciding its seat's actions.
    verdict = game["arena"]
    assert verdict["placings"] == [2, 1] and verdict["forfeited"] == [0]
    seats = [action["seat"] for action in game["actions"]]
    assert len(verdict["decided_by"]) == len(seats)
    assert "stand-in" in [who for who, seat in zip(verdict["decided_by"], seats, strict=True) if seat == 0]
    assert all(who == "player" for who, seat in zip(verdict["decided_by"], seats, strict=True) if seat == 1)
    assert f"seat 0 {bot} forfeited ({status}: " in stderr
    assert hint in reason + stderr, stderr
    replay(game)  # greedy played the seat on: the game is complete and legal


def test_a_bot_crashing_mid_game_forfeits_after_its_good_moves(run, tmp_path):
    out = tmp_path / "games.jsonl"
    bot = kit_zip(tmp_path, (HOSTILE / "kit_crash_mid_game.py").read_text())
    code, _, stderr = run("simulate", "--players", "2", "--bots", f"{bot},greedy", "--out", str(out), fast=True)
    assert code == 0, stderr
    (game,) = records(out)
    assert game["forfeits"][0].startswith("crash: the bot exited")
    replay(game)


def test_a_local_bot_cannot_reach_redis_postgresql_or_the_internet(run, tmp_path):
    bot = kit_zip(tmp_path, (HOSTILE / "kit_network.py").read_text())
    code, _, stderr = run("simulate", "--players", "2", "--bots", f"{bot},greedy", "--verbose")
    assert code == 0, stderr
    assert "CONNECTED" not in stderr and "forfeited" not in stderr
    for name in ("redis", "postgresql", "internet", "loopback6"):
        assert f"connect {name}: refused" in stderr, name


def test_a_local_bot_can_write_only_to_its_private_tmp(run, tmp_path):
    planted = tmp_path / "planted-by-bot"
    targets = [str(planted), "/usr/planted", "/tmp/planted"]
    source = (HOSTILE / "kit_write_outside.py").read_text().replace("__TARGETS__", json.dumps(targets))
    bot = kit_zip(tmp_path, source)
    code, _, stderr = run("simulate", "--players", "2", "--bots", f"{bot},greedy", "--verbose")
    assert code == 0, stderr
    assert f"write {planted}: refused" in stderr and "write /usr/planted: refused" in stderr
    assert "write /tmp/planted: WROTE" in stderr  # its own tmpfs, gone with it
    assert not planted.exists()
