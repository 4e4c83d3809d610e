"""A bot program run as a plain child process, without the sandbox (`part-du-chef --no-sandbox`).

Only for one's own bot on one's own machine: the process has the user's rights. It speaks protocol v1
through the same StdioBot code as a sandboxed bot, so messages, time limits and failures are the same.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, Unpack

from sandbox import BundleRejected
from sandbox.languages import launch
from sandbox.process import close_pipes, cpu_wait_seconds_of_pid

from .protocol import CRASH, BotFailure, MoveResult
from .stdio import StdioBot, StdioLimits


class BareProcess:
    """What StdioBot needs of a process (the interface of sandbox.SandboxedProcess), for a bare child."""

    def __init__(self, popen: subprocess.Popen[bytes]) -> None:
        self.popen = popen
        self._closed = False

    @property
    def uid(self) -> int:
        return os.getuid()

    def hit_memory_limit(self) -> bool:
        return False

    # The bot's own process only: its children are not followed here (a bot tried on one's own machine).
    def cpu_wait_mark(self) -> dict[str, float]:
        return {} if self._closed else {"bot": cpu_wait_seconds_of_pid(self.popen.pid)}

    def cpu_wait_since(self, mark: dict[str, float]) -> float:
        return 0.0 if self._closed else cpu_wait_seconds_of_pid(self.popen.pid) - mark.get("bot", 0.0)

    def kill(self) -> None:
        # The bot runs in a session of its own: its whole process group goes, children included.
        # Never once reaped: the group id could belong to someone else by then.
        if self._closed:
            return
        try:
            os.killpg(self.popen.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def close(self) -> None:
        if self._closed:
            return
        self.kill()
        self._closed = True
        try:
            self.popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        close_pipes(self.popen)


def bare_command(files: Path) -> tuple[list[str], Path]:
    """The command and working directory of a prepared bot folder or a lone ``.py``/``.js`` file."""
    folder = files if files.is_dir() else files.parent
    try:
        lang, argv = launch(files, str(folder))
    except BundleRejected as exc:
        raise BotFailure(MoveResult(None, CRASH, 0.0, "", str(exc))) from None
    if lang.key == "python":
        argv = [sys.executable, *argv[argv.index("/usr/bin/python3") + 1 :]]
    missing = lang.missing_tools()
    if missing:
        raise BotFailure(MoveResult(None, CRASH, 0.0, "", f"{lang.name} needs {', '.join(missing)}, not installed"))
    return argv, folder


class BareBot(StdioBot):
    def __init__(self, files: str | Path, **kwargs: Unpack[StdioLimits]) -> None:
        super().__init__(**kwargs)
        self.files = Path(files)
        self.argv, self.cwd = bare_command(self.files)

    def _spawn(self) -> Any:
        env = {key: os.environ[key] for key in ("PATH", "HOME", "LANG", "TMPDIR") if key in os.environ}
        env.update(PYTHONDONTWRITEBYTECODE="1", PYTHONUNBUFFERED="1")
        popen = subprocess.Popen(
            self.argv,
            cwd=self.cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            close_fds=True,
        )
        return BareProcess(popen)
