"""Protocol v1 over a child process's stdin/stdout (JSON Lines), run in the sandbox.

One thread does everything with ``poll``: it writes the request without ever
blocking past the deadline, reads stdout up to one line of at most 64 KiB and
keeps draining stderr meanwhile, so neither a silent bot, a bot that never
reads, nor one that floods stdout or stderr can hold the worker.
"""

from __future__ import annotations

import errno
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Hashable
from dataclasses import replace
from pathlib import Path
from typing import Any, Unpack

from sandbox import BundleRejected, Sandbox, SandboxBusy, SandboxedProcess
from sandbox.languages import Language, launch
from sandbox.runner import refuse_links

from . import limits
from .protocol import (
    CRASH,
    INVALID,
    MAX_MESSAGE_BYTES,
    OK,
    TIMEOUT,
    BotFailure,
    MoveResult,
    encode,
)
from .session import BotSession, Exchange, ServerBusy, SessionLimits

STDOUT_SESSION_CAP = 4 * 1024 * 1024  # total stdout per match: answers are small
STDERR_MOVE_CAP = 2048  # per move, in the match log
STDERR_SESSION_CAP = 64 * 1024  # whole-match tail kept for the owner
STDERR_READ_CAP = 16 * 1024 * 1024  # read past this and stderr is no longer drained
# A reply slower than this is looked at for the bot's CPU waits (a full look at its processes, ~1 ms).
CPU_WAIT_LOOK_S = 0.05


class _Tail:
    """Keep the last ``cap`` bytes of a stream and how much was dropped."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.data = bytearray()
        self.dropped = 0

    def add(self, chunk: bytes) -> None:
        self.data += chunk
        if len(self.data) > self.cap:
            cut = len(self.data) - self.cap
            self.dropped += cut
            del self.data[:cut]

    def text(self) -> str:
        prefix = f"[{self.dropped} earlier bytes dropped]\n" if self.dropped else ""
        return prefix + self.data.decode("utf-8", errors="replace")


class StdioLimits(SessionLimits, total=False):
    """A process bot's limits: the session's and its whole match's wall clock."""

    wall_s: float


class StdioBot(BotSession):
    """A bot speaking protocol v1 on a process started by ``_spawn``."""

    # Starting the process is the server's work: the bot's start limit counts from when it runs.
    launch_is_servers = True

    def __init__(self, *, wall_s: float = limits.WALL_S, **kwargs: Unpack[SessionLimits]) -> None:
        super().__init__(**kwargs)
        self.wall_s = wall_s
        self._wall_timer: threading.Timer | None = None
        self._wall_expired = False
        self.process: SandboxedProcess | None = None
        self._out = bytearray()
        self._out_total = 0
        self._err_total = 0
        self._err_move = _Tail(STDERR_MOVE_CAP)
        self._err_all = _Tail(STDERR_SESSION_CAP)
        self._fds: dict[str, int] = {}
        self._released = True

    def _spawn(self) -> SandboxedProcess:
        raise NotImplementedError

    def _give_back(self, process: SandboxedProcess) -> bool:
        """Keep ``process`` for another game after this one ended cleanly; False closes it."""
        return False

    def _launch(self) -> None:
        if self.process is not None:
            raise RuntimeError("a bot session starts only once")
        self._released = False
        self.process = self._spawn()
        # A whole-match wall-clock limit, enforced even if the caller stops asking.
        self._wall_timer = threading.Timer(self.wall_s, self._expire, args=(self.process,))
        self._wall_timer.daemon = True
        self._wall_timer.start()
        popen = self.process.popen
        assert popen.stdin and popen.stdout and popen.stderr
        self._fds = {
            "in": popen.stdin.fileno(),
            "out": popen.stdout.fileno(),
            "err": popen.stderr.fileno(),
        }
        for fd in self._fds.values():
            os.set_blocking(fd, False)

    def _expire(self, process: SandboxedProcess) -> None:
        self._wall_expired = True
        process.kill()

    @property
    def stderr_log(self) -> str:
        """Everything the bot wrote to stderr this match (last 64 KiB)."""
        return self._err_all.text()

    # -- one request ------------------------------------------------------------------

    def _exchange(self, message: dict[str, Any], timeout_s: float, reply: bool) -> Exchange:
        if self._wall_expired:
            return self._stop(TIMEOUT, f"the bot ran past the match's wall-clock limit of {self.wall_s:.0f} s")
        if self.process is None or self.process.popen.poll() is not None:
            # Said as when it exits while asked: whether it was gone before the request was written or
            # after is only the machine's timing (games started side by side), and its reason must not vary.
            return self._dead("the bot exited")
        self._err_move = _Tail(STDERR_MOVE_CAP)
        started = time.monotonic()
        deadline = started + timeout_s
        cap = timeout_s * limits.CPU_WAIT_CREDIT
        self._pump(0.0)
        if self._out:
            return self._stop(
                INVALID,
                "the bot wrote to stdout without being asked (use stderr for logs)",
                bytes(self._out),
            )
        mark = self.process.cpu_wait_mark()
        credited = 0.0  # of the bot's time, given back for its waits for a CPU (below)
        failure = self._write(encode(message), deadline)
        if failure is not None:
            return failure
        if not reply and self.more_games:
            # It stays for another game: what it logs from now on is not this game's.
            self._pump(0.0)
            return Exchange(None, OK, None, self._err_move.text())
        if not reply:
            # Let a bot that exits on "end" flush its last logs before it is killed.
            while time.monotonic() < deadline and not self._pump(deadline - time.monotonic()):
                pass
            return Exchange(None, OK, None, self._err_move.text())
        while True:
            newline = self._out.find(b"\n")
            if newline >= 0:
                line = bytes(self._out[:newline])
                if len(self._out) > newline + 1:
                    return self._stop(
                        INVALID,
                        "the bot wrote more than one line for one request (use stderr for logs)",
                        bytes(self._out),
                    )
                del self._out[: newline + 1]
                if time.monotonic() - started > CPU_WAIT_LOOK_S:
                    # A slow reply may draw on the bank: the time it waited for a CPU is not drawn.
                    credited = max(credited, min(self.process.cpu_wait_since(mark), cap))
                return Exchange(line, OK, None, self._err_move.text(), waited_s=credited)
            if len(self._out) > MAX_MESSAGE_BYTES:
                return self._stop(
                    INVALID,
                    f"reply longer than {MAX_MESSAGE_BYTES} bytes without a newline",
                    bytes(self._out),
                )
            if self._out_total > STDOUT_SESSION_CAP:
                return self._stop(
                    INVALID,
                    f"the bot wrote more than {STDOUT_SESSION_CAP} bytes to stdout",
                )
            if self._err_total > STDERR_READ_CAP:
                return self._stderr_flood()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                # Time is up, less what the bot spent waiting for a CPU that the machine gave to others:
                # that is given back (up to CPU_WAIT_CREDIT times its time), and the bot may still answer.
                waited = min(self.process.cpu_wait_since(mark), cap)
                if waited - credited >= 0.001:
                    deadline += waited - credited
                    credited = waited
                    continue
                given = f" (and {credited * 1000:.0f} ms waiting for a busy machine's CPU)" if credited else ""
                return self._stop(TIMEOUT, f"no reply within {timeout_s * 1000:.0f} ms{given}")
            eof = self._pump(remaining)
            if eof and b"\n" not in self._out:
                return self._dead("the bot exited")

    def _write(self, data: bytes, deadline: float) -> Exchange | None:
        fd = self._fds["in"]
        view = memoryview(data)
        while view:
            try:
                written = os.write(fd, view)
                view = view[written:]
                continue
            except BlockingIOError:
                pass
            except BrokenPipeError:
                return self._dead("the bot closed its stdin")
            if self._err_total > STDERR_READ_CAP:
                return self._stderr_flood()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return self._stop(TIMEOUT, "the bot does not read its stdin")
            poller = select.poll()
            poller.register(fd, select.POLLOUT)
            self._poll_with_output(poller, remaining)
        return None

    def _poll_with_output(self, poller: select.poll, timeout_s: float) -> None:
        """Wait for ``poller`` while still draining stdout/stderr (a bot may block on them)."""
        for name in ("out", "err"):
            if self._fds.get(name, -1) >= 0:
                poller.register(self._fds[name], select.POLLIN)
        poller.poll(max(0, int(timeout_s * 1000)) + 1)
        self._read_available()

    def _pump(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for output, read what is there; True once stdout hit EOF."""
        poller = select.poll()
        watched = 0
        for name in ("out", "err"):
            if self._fds.get(name, -1) >= 0:
                poller.register(self._fds[name], select.POLLIN)
                watched += 1
        if watched:
            poller.poll(max(0, int(timeout_s * 1000)))
        self._read_available()
        return self._fds.get("out", -1) < 0

    def _read_available(self) -> None:
        for name in ("out", "err"):
            fd = self._fds.get(name, -1)
            while fd >= 0:
                try:
                    chunk = os.read(fd, 65536)
                except BlockingIOError:
                    break
                except OSError as exc:
                    if exc.errno == errno.EINTR:
                        continue
                    chunk = b""
                if not chunk:
                    self._fds[name] = -1
                    break
                if name == "out":
                    self._out += chunk
                    self._out_total += len(chunk)
                    if len(self._out) > MAX_MESSAGE_BYTES + 1:
                        break  # enough to know the reply is too long
                else:
                    self._err_total += len(chunk)
                    self._err_move.add(chunk)
                    self._err_all.add(chunk)
                    if self._err_total > STDERR_READ_CAP:
                        self._fds[name] = -1  # stop reading; the bot blocks on a full pipe
                        break

    # -- failures ---------------------------------------------------------------------

    def _stop(self, status: str, error: str, answer: bytes | None = None) -> Exchange:
        self._shutdown()
        return Exchange(None, status, error, self._err_move.text(), answer)

    def _stderr_flood(self) -> Exchange:
        # Past the cap stderr is no longer read, so the bot would block and only time out: say why instead.
        cap = STDERR_READ_CAP // (1024 * 1024)
        return self._stop(CRASH, f"the bot wrote more than {cap} MiB to stderr, the cap per match (log less)")

    def _dead(self, what: str) -> Exchange:
        """The bot died on its own: say how, with what it wrote to stderr last."""
        if self._wall_expired:
            return self._stop(TIMEOUT, f"the bot ran past the match's wall-clock limit of {self.wall_s:.0f} s")
        popen = self.process.popen if self.process else None
        code = None
        if popen is not None:
            try:
                code = popen.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                code = None
            self._read_available()
        limited = self.process is not None and self.process.hit_memory_limit()
        self._shutdown()
        note = " after reaching the memory limit" if limited else ""
        return Exchange(None, CRASH, f"{what}{note}{_describe_exit(code)}", self._err_move.text())

    def _shutdown(self) -> None:
        if self._wall_timer is not None:
            self._wall_timer.cancel()
        if self.process is None or self._released:
            return
        self._released = True
        self._fds = {}
        keep = (
            self.more_games
            and self.ended
            and self.failure is None
            and not self._wall_expired
            and not self._out  # it already wrote something nobody asked for
            and self.process.popen.poll() is None
        )
        if not (keep and self._give_back(self.process)):
            self.process.close()


def _quiet(process: SandboxedProcess) -> bool:
    """Whether a kept process is alive with nothing unasked on stdout; what it logged meanwhile is dropped."""
    popen = process.popen
    if popen.poll() is not None or popen.stdout is None or popen.stderr is None:
        return False
    out, err = popen.stdout.fileno(), popen.stderr.fileno()
    poller = select.poll()
    poller.register(out, select.POLLIN)
    if poller.poll(0):
        return False  # unasked output, or end of file
    drained = 0
    while drained <= STDERR_MOVE_CAP * 64:  # a bot that logs without pause between games is not kept
        try:
            chunk = os.read(err, 65536)
        except BlockingIOError:
            return True
        except OSError:
            return False
        if not chunk:
            return False
        drained += len(chunk)
    return False


def _describe_exit(code: int | None) -> str:
    if code is None:
        return ""
    # bwrap reports the bot's own exit status; a signal shows as 128 + n.
    if code > 128 and code - 128 < signal.NSIG:
        sig = signal.Signals(code - 128).name
        hint = {
            "SIGKILL": " (killed: CPU time or another limit)",
            "SIGXCPU": " (CPU time limit)",
            "SIGSYS": " (forbidden system call)",
            "SIGXFSZ": " (file size limit)",
            "SIGSEGV": " (crashed, possibly out of memory)",
        }.get(sig, "")
        return f" (signal {sig}){hint}"
    if code < 0:
        return f" (signal {signal.Signals(-code).name})"
    return f" (exit code {code})"


def entry_command(files: Path) -> tuple[Language, list[str]]:
    """The language and command of a prepared bot folder (sandbox.build), or a lone ``.py``/``.js`` file."""
    try:
        return launch(files, "/bot")
    except BundleRejected as exc:
        raise BotFailure(MoveResult(None, CRASH, 0.0, "", str(exc))) from None


class SandboxedBot(StdioBot):
    """An untrusted bot (its file or unpacked directory) run in the sandbox.

    Construction checks that the sandbox works here and raises
    ``SandboxUnavailable`` otherwise: untrusted code never runs bare.  Bot
    files holding a symlink or special file raise ``BundleRejected``.
    """

    def __init__(
        self,
        files: str | Path,
        *,
        sandbox: Sandbox | None = None,
        reuse_key: Hashable = None,
        **kwargs: Unpack[StdioLimits],
    ) -> None:
        super().__init__(**kwargs)
        self.files = Path(files)
        if not self.files.exists():
            raise FileNotFoundError(f"bot files not found: {self.files}")
        refuse_links(self.files)
        self.sandbox = sandbox or Sandbox()
        self.sandbox.check()
        self.language, self.argv = entry_command(self.files)
        # A runtime that loads slowly (the JVM) gets its documented extra start-up allowance.
        self.start_ms += self.language.extra_start_ms
        base = self.sandbox.config.limits
        memory = max(base.memory_bytes, self.language.run_memory_bytes or 0)
        self.run_limits = base if memory == base.memory_bytes else replace(base, memory_bytes=memory)
        # Whose games a kept process may play next (sandbox.kept): the same owner's bot, files, command and limits.
        self.reuse_key: Hashable = (reuse_key, str(self.files), tuple(self.argv), self.run_limits)
        # How many games the process played before this one, and the deals of those games.
        self.games_before = 0
        self._deals_before: frozenset[int] = frozenset()

    def _spawn(self) -> SandboxedProcess:
        while self.deal is not None:
            kept = self.sandbox.take_kept(self.reuse_key, self.deal)
            if kept is None:
                break
            process, self._deals_before, self.games_before = kept
            if _quiet(process):
                return process
            process.close()  # it wrote to stdout or exited between games: a fresh process instead
        self._deals_before, self.games_before = frozenset(), 0
        try:
            return self.sandbox.spawn(
                self.files,
                self.argv,
                limits=self.run_limits,
                ro_binds=self.language.ro_binds(),
                ready_within=None if self.launch_ms is None else self.launch_ms / 1000,
            )
        except SandboxBusy as exc:
            raise ServerBusy(str(exc)) from exc

    def _give_back(self, process: SandboxedProcess) -> bool:
        if self.deal is None:
            return False
        return self.sandbox.keep(self.reuse_key, process, self._deals_before | {self.deal}, self.games_before + 1)

    @property
    def uid(self) -> int | None:
        return self.process.uid if self.process else None
