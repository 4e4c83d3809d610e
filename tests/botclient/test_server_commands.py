"""`part-du-chef login / submit / status / logs / enter / leave` against a live server (ASGI, the test database)."""

from __future__ import annotations

import json
import re
import stat
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from arena.matches import create_match
from arena.models import ArenaEntry, Player
from botclient import command, replay
from botclient.local import LocalBots
from submissions import actions
from submissions.models import BotVersion
from tests.botclient.conftest import FAST, STARTER_KITS, sandbox_config
from tests.web.asgi import site_with_house_bots


@pytest.fixture
def live(transactional_db: None, monkeypatch: Any, tmp_path: Any, bot_settings: Any) -> Iterator[str]:
    monkeypatch.setenv("PART_DU_CHEF_CONFIG", str(tmp_path / "config" / "part-du-chef.json"))
    User.objects.create_user("alice", password="a-long-passphrase")
    with site_with_house_bots(monkeypatch) as base:
        yield base


def greedy_id() -> int:
    return int(Player.objects.get(builtin="greedy").pk)


def _run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = command.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_login_submit_status_logs_enter_and_leave_against_a_live_server(live, capsys, monkeypatch, tmp_path):
    status, _, err = _run(capsys, "status")
    assert (status, err) == (
        1,
        "error: not logged in: run `part-du-chef login --server URL --username NAME` first "
        "(`part-du-chef signup` with the same options creates an account)\n",
    )

    monkeypatch.setenv("PART_DU_CHEF_PASSWORD", "wrong")
    status, _, err = _run(capsys, "login", "--server", live, "--username", "alice")
    assert status == 1 and "the server answered 400 to /api/auth/token/" in err

    monkeypatch.setenv("PART_DU_CHEF_PASSWORD", "a-long-passphrase")
    status, out, _ = _run(capsys, "login", "--server", live, "--username", "alice")
    config = tmp_path / "config" / "part-du-chef.json"
    assert status == 0 and out.startswith(f"logged in to {live}/; token kept in {config}")
    assert stat.S_IMODE(config.stat().st_mode) == 0o600 and json.loads(config.read_text())["server"] == f"{live}/"

    status, out, _ = _run(capsys, "submit", str(STARTER_KITS / "c" / "main.c"), "--name", "c-chef")
    bot_id = Player.objects.get(name="c-chef").pk
    assert status == 0 and out.startswith(f"bot {bot_id} version 1: submitted, validation queued")
    # No worker in this test: validation runs here, as a worker would run it.
    assert actions.run_validation(BotVersion.objects.get(bot_id=bot_id, number=1).id) == "active"

    status, out, _ = _run(capsys, "status")
    assert (status, out) == (0, f"bot {bot_id} c-chef: active\n")
    status, out, _ = _run(capsys, "logs", str(bot_id))
    assert status == 0 and out.startswith(f"bot {bot_id} version 1: active\n")
    assert "game 1 (match " in out and "game 2 (match " in out and "hello from C" in out

    # replay by match id: the record comes from the server logged in to.
    match = create_match(game="part-du-chef", kind="friendly", player_ids=[bot_id, greedy_id()], seed=12)
    assert actions.play_to_end(match.id, 120) == "finished"
    resolver = LocalBots(sandbox_config=sandbox_config(), **FAST)
    capsys.readouterr()
    status = replay.main([str(match.id), "--bot", str(STARTER_KITS / "c" / "main.c"), "--seat", "0"], resolver=resolver)
    out = capsys.readouterr().out
    assert status == 0 and re.fullmatch(
        r"seat 0 \(c-chef\): (\d+) decisions replayed, \1 the same, 0 different\n", out
    ), out

    status, out, _ = _run(capsys, "enter", str(bot_id))
    entry = ArenaEntry.objects.get(player_id=bot_id, active=True)
    assert status == 0 and out.startswith(f"bot {bot_id} entered the arena at tables of 2 (entry {entry.pk})")
    status, out, _ = _run(capsys, "status", str(bot_id))
    assert status == 0 and "  version 1: active\n" in out and "  arena, tables of 2: " in out

    status, out, _ = _run(capsys, "leave", str(bot_id))
    assert (status, out) == (0, f"bot {bot_id} left the arena (entry {entry.pk}, tables of 2)\n")
    status, _, err = _run(capsys, "leave", str(bot_id))
    assert status == 1 and f"bot {bot_id} is not in the arena" in err

    broken = tmp_path / "broken.c"
    broken.write_text("int main(void) { return 0 }\n")
    status, out, _ = _run(capsys, "submit", str(broken), "--bot", str(bot_id))
    assert status == 0 and out.startswith(f"bot {bot_id} version 2: submitted")
    assert actions.run_validation(BotVersion.objects.get(bot_id=bot_id, number=2).id) == "rejected"
    status, out, _ = _run(capsys, "logs", str(bot_id))
    assert out.startswith(f"bot {bot_id} version 2: rejected: the C build failed: main.c:1:")
    assert "build messages:\nmain.c: In function" in out

    status, out, _ = _run(capsys, "submit", str(STARTER_KITS / "cpp" / "main.cpp"), "--bot", str(bot_id))
    assert actions.run_validation(BotVersion.objects.get(bot_id=bot_id, number=3).id) == "active"
    status, out, _ = _run(capsys, "server-compare", str(bot_id), "--against-version", "1", "--deals", "2")
    assert status == 0 and re.fullmatch(r"comparison \d+ queued: version 3 against version 1\n", out), out

    status, _, err = _run(capsys, "submit", str(tmp_path / "missing.py"), "--name", "ghost")
    assert status == 1 and "missing.py: no such file" in err
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    status, _, err = _run(capsys, "submit", str(notes), "--name", "notes")
    assert status == 1 and "'notes.txt' is not a bot program" in err
