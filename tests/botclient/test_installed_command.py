"""`pip install` of the project (not editable) into a fresh virtual environment gives a `part-du-chef` that works
alone, from a folder outside the checkout: its help lists every command, and a newcomer signs up, logs in,
submits a starter kit and reads its status on a live server."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.models import Player
from botclient import command
from tests.botclient.conftest import ROOT, STARTER_KITS
from tests.web.asgi import site_with_house_bots

pytestmark = pytest.mark.system


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a fresh virtual environment with the project pip-installed from its checkout."""
    where = tmp_path_factory.mktemp("installed")
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(ROOT)],
        cwd=where,
        env=_outside(where),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return venv / "bin"


def _outside(home: Path, bin_dir: Path | None = None) -> dict[str, str]:
    """A newcomer's environment: nothing of this checkout on the paths, the pip settings of the machine."""
    env = {key: value for key, value in os.environ.items() if key.startswith("PIP_") or key.lower().endswith("_proxy")}
    path = os.environ["PATH"].split(os.pathsep)
    env["PATH"] = os.pathsep.join(([str(bin_dir)] if bin_dir else []) + [p for p in path if ".venv" not in p])
    env.update(HOME=str(home), LANG="C.UTF-8")
    return env


@pytest.fixture
def live(transactional_db: None, monkeypatch: Any) -> Iterator[str]:
    with site_with_house_bots(monkeypatch) as base:
        yield base


def test_the_installed_command_lists_every_command_and_refuses_an_unknown_one_with_the_list(installed, tmp_path):
    env = _outside(tmp_path, installed)

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["part-du-chef", *argv], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )

    usage = run("--help")
    assert usage.returncode == 0, usage.stderr
    for name in command.commands():
        assert f"\n  {name} " in usage.stdout, name
    refused = run("frob")
    assert refused.returncode == 2 and f"(choose from {', '.join(command.commands())})" in refused.stderr
    # The command alone: what it imports, and nothing of the server.
    python = str(installed / "python")
    loaded = subprocess.run(
        [python, "-c", "import botclient.command, games.part_du_chef.cli, sandbox, rich; print('ok')"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert loaded.stdout == "ok\n", loaded.stderr
    for server_side in ("django", "celery", "config", "arena", "accounts"):
        probe = subprocess.run([python, "-c", f"import {server_side}"], cwd=tmp_path, env=env, capture_output=True)
        assert probe.returncode == 1, f"{server_side} is installed with the command"


def test_a_newcomer_signs_up_logs_in_submits_a_starter_kit_and_reads_its_status(installed, live, tmp_path):
    home = tmp_path / "home"
    mybots = home / "mybots"
    mybots.mkdir(parents=True)
    (mybots / "mybot.py").write_bytes((STARTER_KITS / "python" / "bot.py").read_bytes())
    env = _outside(home, installed)
    env["PART_DU_CHEF_PASSWORD"] = "a-long-passphrase"

    def run(*argv: str) -> tuple[int, str, str]:
        done = subprocess.run(["part-du-chef", *argv], cwd=mybots, env=env, capture_output=True, text=True, timeout=120)
        return done.returncode, done.stdout, done.stderr

    status, _, err = run("status")
    assert status == 1 and "not logged in" in err and "part-du-chef signup" in err

    status, out, err = run("signup", "--server", live, "--username", "newcomer")
    config = home / ".config" / "part-du-chef" / "config.json"
    player = Player.objects.get(name="newcomer", kind="human")
    assert status == 0, err
    assert out == f"signed up to {live}/ as newcomer (player {player.pk}); token kept in {config}\n"
    status, out, _ = run("status")
    assert (status, out) == (0, "no bots yet: part-du-chef submit FILE --name NAME\n")

    status, _, err = run("signup", "--server", live, "--username", "Newcomer")
    assert status == 1 and "the server answered 400 to /api/accounts/: username: " in err

    config.unlink()
    status, out, err = run("login", "--server", live, "--username", "newcomer")
    assert status == 0 and out == f"logged in to {live}/; token kept in {config}\n", err

    status, out, err = run("submit", "mybot.py", "--name", "newcomer-chef")
    bot = Player.objects.get(name="newcomer-chef")
    assert status == 0, err
    assert (
        out == f"bot {bot.pk} version 1: submitted, validation queued\nfollow it with: part-du-chef status {bot.pk}\n"
    )
    assert bot.owner is not None and bot.owner.username == "newcomer"

    status, out, _ = run("status")
    assert (status, out) == (0, f"bot {bot.pk} newcomer-chef: pending\n")
    status, out, _ = run("status", str(bot.pk))
    assert status == 0 and out.startswith(f"bot {bot.pk} newcomer-chef: pending\n  version 1: pending\n")
