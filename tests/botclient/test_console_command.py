"""The `part-du-chef` console command: declared for pip, packaged with every top-level package it needs, and
working from any folder."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tomllib

import grimp
import pytest

from botclient import command, server
from games.part_du_chef import cli

from .conftest import BASE_UID, ROOT, SLOTS, STARTER_KITS, STATE_DIR


def test_pyproject_declares_the_command_and_packages_exactly_what_it_imports():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["scripts"] == {"part-du-chef": "botclient.command:main"}
    graph = grimp.build_graph("botclient", "games", "sandbox", include_external_packages=True, cache_dir=None)
    imported = {module.split(".")[0] for module in graph.find_upstream_modules("botclient.command")}
    needed = (imported | {"botclient"}) - sys.stdlib_module_names
    ours = {name for name in needed if (ROOT / name / "__init__.py").is_file()}
    included = {pattern.rstrip("*") for pattern in project["tool"]["setuptools"]["packages"]["find"]["include"]}
    # The command alone: nothing of the server (Django and the rest stay in requirements.txt).
    assert included == ours == {"botclient", "games", "sandbox"}
    declared = {re.split(r"[<>=!~ ;\[]", requirement)[0] for requirement in project["project"]["dependencies"]}
    assert declared == needed - ours == {"rich"}


def _choices(parser: argparse.ArgumentParser) -> list[str]:
    (commands,) = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    return list(commands.choices)


def test_help_lists_every_command_of_both_groups_and_an_unknown_one_is_refused_with_the_list(capsys):
    assert command.main(["--help"]) == 0
    listed = capsys.readouterr().out
    local = [*_choices(cli.parser()), "replay"]
    remote = _choices(server.parser("part-du-chef"))
    assert command.commands() == [*local, *remote] and set(remote) == set(server.COMMANDS)
    assert {"signup", "login", "submit", "status", "server-compare", "simulate", "replay"} <= set(command.commands())
    for name in command.commands():
        assert re.search(rf"^  {re.escape(name)} +\S", listed, re.M), name
    assert listed.index("play on this machine") < listed.index("  simulate") < listed.index("your bots on an arena")
    assert listed.index("your bots on an arena") < listed.index("  signup") < listed.index("  server-compare")
    assert "%%" not in listed

    assert command.main(["frob"]) == 2
    err = capsys.readouterr().err
    assert f"part-du-chef: error: invalid choice: 'frob' (choose from {', '.join(command.commands())})" in err


def test_signup_asks_the_password_twice_and_creates_nothing_when_they_differ(monkeypatch, capsys, tmp_path):
    monkeypatch.delenv("PART_DU_CHEF_PASSWORD", raising=False)
    monkeypatch.setenv("PART_DU_CHEF_CONFIG", str(tmp_path / "config.json"))
    typed = iter(["a-long-passphrase", "a-long-passphrasf"])
    monkeypatch.setattr(server.getpass, "getpass", lambda prompt: next(typed))
    # Nothing listens there: a request would fail otherwise than said below.
    assert command.main(["signup", "--server", "http://127.0.0.1:9/", "--username", "newcomer"]) == 1
    assert capsys.readouterr().err == "error: the two passwords differ; nothing was created\n"
    assert not (tmp_path / "config.json").exists()


@pytest.mark.system
def test_the_command_runs_from_any_folder(tmp_path):
    (tmp_path / "mybot.py").write_bytes((STARTER_KITS / "python" / "bot.py").read_bytes())
    env = dict(
        os.environ,
        PYTHONPATH=str(ROOT),  # what the editable install provides
        PART_DU_CHEF_SANDBOX_UID=str(BASE_UID),
        PART_DU_CHEF_SANDBOX_DIR=str(STATE_DIR),
        PART_DU_CHEF_SANDBOX_SLOTS=str(SLOTS),
    )
    done = subprocess.run(
        [sys.executable, "-m", "botclient.command", "simulate", "--players", "2", "--bots", "mybot.py,greedy"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "1 games of 2 players" in done.stdout and "mybot.py" in done.stdout
    usage = subprocess.run(
        [sys.executable, "-m", "botclient.command", "--help"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert usage.returncode == 0 and usage.stdout.startswith("usage: part-du-chef ")
