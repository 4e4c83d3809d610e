"""`make run` supervises its worker and beat (scripts/supervise.sh): a process that exits is started again.

The loop is exercised with a stand-in command that exits twice with an error, then stays up as a
worker does; stopping the loop stops the command too.
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

from tests.support import ROOT, wait_until

STAND_IN = """
echo $$ >> "$RUNS"
[ "$(wc -l < "$RUNS")" -ge 3 ] && exec sleep 600
echo "giving up" >&2
exit 3
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_supervised_command_that_exits_is_started_again_with_a_line_saying_so(tmp_path: Path) -> None:
    runs, log = tmp_path / "runs", tmp_path / "worker.log"
    script = (
        f'source "{ROOT / "scripts" / "supervise.sh"}"; PIDS=(); '
        f'supervise worker "{log}" bash -c {_quote(STAND_IN)}; echo "${{PIDS[0]}}"; wait'
    )
    shell = subprocess.Popen(
        ["bash", "-c", script],
        env={**os.environ, "RUNS": str(runs), "SUPERVISE_PAUSE": "0.1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert shell.stdout is not None
        supervisor = int(shell.stdout.readline())
        wait_until(lambda: runs.exists() and len(runs.read_text().split()) == 3, 60, "the third start")
        pids = [int(pid) for pid in runs.read_text().split()]
        text = log.read_text()
        assert text.count("giving up") == 2
        assert [line for line in text.splitlines() if line.startswith("==>")] == [
            line for line in text.splitlines() if "worker (pid" in line and "exited with status 3; restarting" in line
        ]
        assert text.count("exited with status 3; restarting") == 2
        assert _alive(pids[-1])  # the third run stays up
        os.kill(supervisor, signal.SIGTERM)
        _, stderr = shell.communicate(timeout=30)
        assert stderr.count("exited with status 3; restarting it in 0.1s") == 2
        wait_until(lambda: not _alive(pids[-1]), 30, "the supervised command to stop with its supervisor")
    finally:
        if shell.poll() is None:
            os.killpg(shell.pid, signal.SIGKILL)
            shell.wait(timeout=30)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"
