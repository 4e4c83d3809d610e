"""The "your first hour" walkthrough of docs/bots-submission.md works as written: its shell blocks are run,
command by command, with a fresh home folder, from the project's folder as the page says, nothing of the
project's own environment on the paths: the page's own `pip install .` makes the `part-du-chef` it uses."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from sandbox.slots import processes_of

from .conftest import BASE_UID, ROOT, SLOTS, STATE_DIR

pytestmark = pytest.mark.system

DOC = ROOT / "docs" / "bots-submission.md"


def _section_commands() -> list[str]:
    section = DOC.read_text().split("## Your first hour", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def test_the_walkthrough_runs_command_by_command(tmp_path):
    commands = _section_commands()
    assert any(c.startswith("part-du-chef simulate") for c in commands)
    assert any(c.startswith("part-du-chef compare") for c in commands)
    assert commands[:3] == [
        "python3 -m venv ~/part-du-chef",
        "~/part-du-chef/bin/pip install .",
        'export PATH="$HOME/part-du-chef/bin:$PATH"',
    ]
    home = tmp_path / "home"
    home.mkdir()
    path = [folder for folder in os.environ["PATH"].split(os.pathsep) if ".venv" not in folder]
    env = {
        # The machine's pip settings (its package index), nothing else of this process's environment.
        **{key: value for key, value in os.environ.items() if key.startswith("PIP_") or key.lower().endswith("_proxy")},
        "PATH": os.pathsep.join(path),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "COLUMNS": "200",
        # The bots' sandbox slots of this test run, apart from everyone else's.
        "PART_DU_CHEF_SANDBOX_UID": str(BASE_UID),
        "PART_DU_CHEF_SANDBOX_DIR": str(STATE_DIR),
        "PART_DU_CHEF_SANDBOX_SLOTS": str(SLOTS),
    }
    lines = ["set -euo pipefail"]
    for command in commands:
        quoted = command.replace("'", "'\\''")
        lines += [f"echo '+ {quoted}' >&2", command]
    script = "\n".join(lines) + "\n"
    done = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    out, err = done.stdout, done.stderr
    mybots = home / "mybots"
    assert (mybots / "mybot.py").is_file() and (mybots / "mybot_v2.py").is_file()
    assert (home / "part-du-chef" / "bin" / "part-du-chef").is_file()
    assert "play on this machine" in out and "  signup " in out  # part-du-chef --help
    assert "20 games of 3 players, seeds 1..20, records in games.jsonl" in out
    assert "20 records verified" in out
    assert "Final scores" in out
    assert "[mybot.py] seat 0 of 2" in err  # --verbose: the kit's own stderr line at start
    # Sequential: it stops as soon as the verdict is clear, at most at the 10 deals asked for.
    assert re.search(r"\d+ duplicate deals \(seeds 0(\.\.\d)?\), 3 players", out) and "verdict: " in out
    # The tutorial's version 2 really is better: it teaches a verdict, not "cannot tell".
    assert "verdict: mybot_v2.py is better than mybot.py" in " ".join(out.split())
    assert "seat 0 (mybot.py): 7 decisions replayed, 7 the same, 0 different" in out
    assert "forfeited" not in err
    assert not (ROOT / "games.jsonl").exists()  # everything happened in the walkthrough's own folder
    assert all(not processes_of(uid) for uid in range(BASE_UID, BASE_UID + SLOTS)), "bots outlived the command"
