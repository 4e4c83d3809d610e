"""bench/crowd.py starts the stack with scripts/run.sh's own command lines, read from the script."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from bench.crowd import RUN_SH, run_sh_commands


def test_the_crowd_runs_the_worker_beat_and_gunicorn_lines_of_run_sh_on_its_own_port_and_files(tmp_path: Path) -> None:
    log, schedule = tmp_path / "gunicorn.log", tmp_path / "schedule"
    commands = run_sh_commands(8139, log, schedule)
    venv_bin = Path(sys.executable).parent
    assert commands["celery worker"][:4] == [str(venv_bin / "celery"), "-A", "config", "worker"]
    assert commands["celery beat"][:4] == [str(venv_bin / "celery"), "-A", "config", "beat"]
    assert commands["celery beat"][commands["celery beat"].index("--schedule") + 1] == str(schedule)
    gunicorn = commands["gunicorn"]
    assert gunicorn[:2] == [str(venv_bin / "gunicorn"), "config.asgi:application"]
    assert gunicorn[gunicorn.index("-k") + 1] == "config.uvicorn_worker.ArenaUvicornWorker"
    assert gunicorn[gunicorn.index("--bind") + 1] == "127.0.0.1:8139"
    assert gunicorn[gunicorn.index("--access-logfile") + 1] == str(log)
    assert gunicorn[gunicorn.index("--error-logfile") + 1] == str(log)
    # Every option run.sh gives its processes is given (the values of its variables substituted).
    script = RUN_SH.read_text()
    for label, marker in (("celery worker", "supervise worker"), ("celery beat", "supervise beat")):
        line = next(line for line in script.splitlines() if line.strip().startswith(marker))
        options = [word for word in shlex.split(line) if word.startswith("-") and "$" not in word]
        assert set(options) <= set(commands[label]), (label, options)
    assert "locust" not in sys.modules  # reading the commands loads nothing of the load generator
