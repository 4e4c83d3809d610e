"""The `part-du-chef` console command: declared for pip, packaged with every top-level package it needs, and
working from any folder."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib

import pytest

from .conftest import BASE_UID, ROOT, SLOTS, STARTER_KITS, STATE_DIR


def test_pyproject_declares_the_command_and_packages_every_top_level_package():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["scripts"] == {"part-du-chef": "botclient.command:main"}
    included = {pattern.rstrip("*") for pattern in project["tool"]["setuptools"]["packages"]["find"]["include"]}
    top_level = {
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in {"tests", "bench"}  # not installed: the suite and the benchmarks
    }
    assert included == top_level


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
