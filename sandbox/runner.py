"""Start untrusted code under bubblewrap, as a per-slot uid, with rlimits and seccomp.

Layers, outermost first:

* ``Popen(user=slot uid)``: the code never runs as the worker's user, and each
  concurrent bot has its own uid (see ``slots``).
* ``prlimit``: address space, CPU seconds, processes per uid, file size, open
  files, no core dumps.
* ``bwrap``: new user, mount, pid, network, IPC, UTS and cgroup namespaces (no
  network at all, not even loopback to the host's Redis or PostgreSQL), no
  further user namespaces, a read-only view of ``/usr`` only (no ``/etc``
  beyond the loader cache, no ``/root``, ``/home``, ``/work``, project or
  settings), the bot's own files read-only at ``/bot``, a size-capped private
  ``/tmp``, a fresh ``/proc`` and minimal ``/dev``, an empty environment, a new
  session (no terminal injection), death with its parent.
* ``seccomp``: see ``seccomp.build_filter``.

At the end the outer process group and then every process of the slot uid
are killed, and the staged files are removed.
"""

from __future__ import annotations

import io
import os
import shutil
import signal
import stat
import subprocess
import threading
import time
import uuid
from collections.abc import Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path

from . import seccomp
from .cgroups import SlotCgroups
from .errors import BundleRejected, SandboxBusy, SandboxUnavailable
from .kept import KeptProcesses
from .process import SandboxedProcess
from .slots import Slot, SlotPool, kill_uid

MiB = 1024 * 1024


@dataclass(frozen=True)
class SandboxLimits:
    memory_bytes: int = 512 * MiB
    cpu_seconds: int = 60
    processes: int = 32
    file_bytes: int = 16 * MiB
    open_files: int = 64
    tmp_bytes: int = 64 * MiB
    shm_bytes: int = 16 * MiB


@dataclass(frozen=True)
class SandboxConfig:
    bwrap: str = "/usr/bin/bwrap"
    prlimit: str = "/usr/bin/prlimit"
    python: str = "/usr/bin/python3"
    node: str = "/usr/bin/node"
    state_dir: Path = Path("/run/arena-sandbox")
    base_uid: int = 62000
    slots: int = 16
    limits: SandboxLimits = field(default_factory=SandboxLimits)
    # Per-slot memory and pids cgroups: None uses them where the host allows, True requires them.
    cgroups: bool | None = None
    # Bots' processes kept between games (sandbox.kept): at most this many (None: a third of the slots),
    # each closed after this long without a game.
    kept: int | None = None
    kept_idle_s: float = 20.0
    # A pause taken by every start, once its slot is held: a slow machine on demand, for drills and tests
    # of what the server does when its own start-up runs late (never set in production).
    start_delay_s: float = 0.0


# Read-only system paths visible inside.  Only what an interpreter needs.
_SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/localtime")


@dataclass
class RunResult:
    returncode: int
    stdout: bytes
    stderr: bytes
    timed_out: bool


class Sandbox:
    def __init__(self, config: SandboxConfig | None = None) -> None:
        self.config = config or SandboxConfig()
        self.pool = SlotPool(self.config.state_dir / "locks", self.config.base_uid, self.config.slots)
        self.cgroups: SlotCgroups | None = None
        self.cgroups_missing: str | None = None
        self._checked = False
        self._check_lock = threading.Lock()
        self._pid = -1
        self._own_process()

    def _own_process(self) -> None:
        """Kept processes and starting threads belong to one process: a forked child (a worker's) starts anew."""
        if self._pid == os.getpid():
            return
        self._pid = os.getpid()
        capacity = self.config.kept if self.config.kept is not None else self.config.slots // 3
        self.kept = KeptProcesses(capacity, self.config.kept_idle_s)
        # Processes are started from these long-lived threads: bwrap's --die-with-parent follows the
        # thread that started it, and a kept process must outlive the game thread that first needed it.
        self._starter = ThreadPoolExecutor(max_workers=4, thread_name_prefix="sandbox-start")

    # -- availability -------------------------------------------------------------

    def check(self) -> None:
        """Raise SandboxUnavailable, naming the reason, unless a sandboxed run works here."""
        with self._check_lock:
            if self._checked:
                return
            self._check_static()
            self._check_cgroups()
            source = Path(self._new_workdir(None))
            try:
                (source / "probe.py").write_text("print('sandbox-ok')\n")
                try:
                    proc = self._spawn(
                        source / "probe.py",
                        [self.config.python, "-S", "/bot/probe.py"],
                        False,
                    )
                except OSError as exc:
                    raise SandboxUnavailable(f"cannot start bubblewrap: {exc}") from exc
                try:
                    result = _communicate(proc.popen, 20.0, 64 * 1024)
                finally:
                    proc.close()
            finally:
                shutil.rmtree(source, ignore_errors=True)
            if result.stdout.strip() != b"sandbox-ok":
                detail = result.stderr.decode(errors="replace").strip()[-500:]
                raise SandboxUnavailable(f"bubblewrap could not start a sandboxed process: {detail or 'no output'}")
            self._checked = True

    def _check_cgroups(self) -> None:
        cfg = self.config
        if cfg.cgroups is False:
            self.cgroups_missing = "disabled by configuration"
            return
        groups = SlotCgroups(cfg.limits.memory_bytes, cfg.limits.processes)
        missing = groups.available()
        if missing is None:
            self.cgroups = groups
        elif cfg.cgroups:
            raise SandboxUnavailable(f"per-slot cgroups are required but unavailable: {missing}")
        else:
            self.cgroups_missing = missing

    def _check_static(self) -> None:
        cfg = self.config
        if not seccomp.supported():
            raise SandboxUnavailable("the seccomp filter is written for x86_64; this machine is not")
        if os.geteuid() != 0:
            raise SandboxUnavailable(
                "the sandbox must be started by root, so that every bot runs under its own unprivileged uid"
            )
        for label, path in (
            ("bubblewrap", cfg.bwrap),
            ("prlimit", cfg.prlimit),
            ("python3", cfg.python),
        ):
            if not os.access(path, os.X_OK):
                hint = " (apt-get install bubblewrap)" if label == "bubblewrap" else ""
                raise SandboxUnavailable(f"{label} not found at {path}{hint}")
        for parent in [*reversed(cfg.state_dir.parents)]:
            if not parent.exists():
                break  # created below with mode 755
            mode = parent.stat().st_mode
            if not mode & 0o001:
                raise SandboxUnavailable(
                    f"{parent} (mode {mode & 0o777:o}) cannot be traversed by the sandbox users; "
                    f"choose a state directory whose parents are world-searchable, not {cfg.state_dir}"
                )
        try:
            with open("/proc/sys/user/max_user_namespaces") as fh:
                if int(fh.read().strip() or 0) == 0:
                    raise SandboxUnavailable("user namespaces are disabled (user.max_user_namespaces = 0)")
        except FileNotFoundError as exc:
            raise SandboxUnavailable("this kernel has no user namespaces") from exc

    # -- staging ------------------------------------------------------------------

    def _new_workdir(self, slot: Slot | None) -> str:
        root = self.config.state_dir / "work"
        root.mkdir(parents=True, exist_ok=True)
        os.chmod(self.config.state_dir, 0o711)
        os.chmod(root, 0o711)
        if slot is not None:
            # Whatever a killed worker left staged for this slot is stale now that we hold it.
            for stale in root.glob(f"slot{slot.index}-*"):
                shutil.rmtree(stale, ignore_errors=True)
        prefix = f"slot{slot.index}-" if slot is not None else "probe-"
        path = root / f"{prefix}{uuid.uuid4().hex}"
        path.mkdir(mode=0o750)
        if slot is not None:
            os.chown(path, 0, slot.gid)
        else:
            os.chmod(path, 0o755)
        return str(path)

    def stage(self, slot: Slot, files: Path) -> Path:
        """Copy ``files`` (a file or a directory) to a fresh directory readable by the slot only."""
        refuse_links(files)
        workdir = Path(self._new_workdir(slot))
        bot = workdir / "bot"
        if files.is_dir():
            shutil.copytree(files, bot, symlinks=True)
        else:
            bot.mkdir()
            shutil.copyfile(files, bot / files.name, follow_symlinks=False)
        for dirpath, _dirnames, filenames in os.walk(bot):
            os.chown(dirpath, 0, slot.gid)
            os.chmod(dirpath, 0o750)
            for name in filenames:
                p = os.path.join(dirpath, name)
                # A program's execute bit survives (a ready-built or compiled bot); nothing else does.
                executable = os.lstat(p).st_mode & stat.S_IXUSR
                os.chown(p, 0, slot.gid)
                os.chmod(p, 0o750 if executable else 0o640)
        os.chown(workdir, 0, slot.gid)
        return workdir

    # -- launching ----------------------------------------------------------------

    def command(
        self,
        argv: list[str],
        seccomp_fd: int,
        *,
        writable: bool = False,
        block_fd: int | None = None,
        limits: SandboxLimits | None = None,
        ro_binds: tuple[str, ...] = (),
    ) -> list[str]:
        cfg, lim = self.config, limits or self.config.limits
        cmd = [
            cfg.prlimit,
            f"--as={lim.memory_bytes}",
            f"--cpu={lim.cpu_seconds}:{lim.cpu_seconds + 1}",
            f"--nproc={lim.processes}",
            f"--fsize={lim.file_bytes}",
            f"--nofile={lim.open_files}",
            "--core=0",
            "--",
            cfg.bwrap,
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--die-with-parent",
            "--new-session",
            "--hostname",
            "arena-bot",
            "--ro-bind",
            "/usr",
            "/usr",
        ]
        for top in ("/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"):
            if os.path.islink(top):
                cmd += ["--symlink", os.readlink(top), top]
            elif os.path.isdir(top):
                cmd += ["--ro-bind", top, top]
        for path in _SYSTEM_FILES:
            cmd += ["--ro-bind-try", path, path]
        # A runtime's own read-only files outside /usr (the JVM's /etc/java-*), named by sandbox.languages.
        for path in ro_binds:
            cmd += ["--ro-bind-try", path, path]
        cmd += [
            "--proc",
            "/proc",
            "--dev",
            "/dev",
            "--size",
            str(lim.shm_bytes),
            "--tmpfs",
            "/dev/shm",
            "--size",
            str(lim.tmp_bytes),
            "--tmpfs",
            "/tmp",
            "--ro-bind",
            "bot",
            "/bot",
        ]
        if writable:
            cmd += ["--bind", "out", "/out"]
        # bwrap's new root and /dev are unbounded tmpfs: read-only, so only the capped /tmp and /dev/shm take writes.
        cmd += ["--remount-ro", "/", "--remount-ro", "/dev"]
        cmd += [
            "--chdir",
            "/bot",
            "--clearenv",
            "--setenv",
            "PATH",
            "/usr/bin:/bin",
            "--setenv",
            "HOME",
            "/tmp",
            "--setenv",
            "TMPDIR",
            "/tmp",
            "--setenv",
            "LANG",
            "C.UTF-8",
            "--setenv",
            "PYTHONDONTWRITEBYTECODE",
            "1",
            "--setenv",
            "PYTHONUNBUFFERED",
            "1",
            "--seccomp",
            str(seccomp_fd),
        ]
        if block_fd is not None:
            cmd += ["--block-fd", str(block_fd)]
        cmd += ["--", *argv]
        return cmd

    def spawn(
        self,
        files: Path,
        argv: list[str],
        *,
        writable_out: bool = False,
        limits: SandboxLimits | None = None,
        ro_binds: tuple[str, ...] = (),
        ready_within: float | None = None,
    ) -> SandboxedProcess:
        """Start ``argv`` (paths as seen inside, e.g. ``/bot/main.py``) with ``files`` at ``/bot``.

        ``limits`` replaces the configured rlimits for this process (a build, a runtime that needs more
        address space); the slot's cgroups keep the configured memory, so the sum stays bounded.
        ``ready_within``: seconds the server's own part may take (waiting for a slot, staging the files,
        starting bubblewrap); past it ``SandboxBusy`` is raised and a process that starts later is closed.
        """
        self.check()
        self._own_process()
        deadline = None if ready_within is None else time.monotonic() + ready_within
        started = self._starter.submit(self._spawn, files, argv, writable_out, limits, ro_binds, deadline)
        if ready_within is None:
            return started.result()
        try:
            return started.result(timeout=max(0.0, ready_within))
        except FutureTimeout:
            # Whoever asked has gone on: the process, if it ever starts, is nobody's.
            started.add_done_callback(_close_unclaimed)
            raise SandboxBusy(
                f"the server took more than {ready_within * 1000:.0f} ms to start the bot's sandbox"
            ) from None

    def take_kept(self, key: Hashable, deal: int | None) -> tuple[SandboxedProcess, frozenset[int], int] | None:
        """A process kept for ``key`` after an earlier game that never played ``deal`` (sandbox.kept)."""
        self._own_process()
        return self.kept.take(key, deal)

    def keep(self, key: Hashable, process: SandboxedProcess, deals: frozenset[int], games: int) -> bool:
        """Keep a process that finished a game cleanly for the next game of ``key``; closes it if it may not be."""
        self._own_process()
        return self.kept.give(key, process, deals, games)

    def _spawn(
        self,
        files: Path,
        argv: list[str],
        writable_out: bool,
        limits: SandboxLimits | None = None,
        ro_binds: tuple[str, ...] = (),
        deadline: float | None = None,
    ) -> SandboxedProcess:
        wait_s = 10.0 if deadline is None else max(0.0, min(10.0, deadline - time.monotonic()))
        slot = self.pool.acquire(wait_s)
        try:
            if self.config.start_delay_s > 0:
                time.sleep(self.config.start_delay_s)
            if deadline is not None and time.monotonic() > deadline:
                raise SandboxBusy("the sandbox's start ran past the server's start-up limit")
            workdir = self.stage(slot, files)
        except BaseException:
            slot.release()
            raise
        try:
            if writable_out:
                out = workdir / "out"
                out.mkdir(mode=0o700)
                os.chown(out, slot.uid, slot.gid)
            popen = self._popen(workdir, argv, slot, writable_out, limits, ro_binds)
        except BaseException:
            shutil.rmtree(workdir, ignore_errors=True)
            slot.release()
            raise
        cpu_limit = (limits or self.config.limits).cpu_seconds
        return SandboxedProcess(popen, slot, workdir, self.cgroups, cpu_limit_s=cpu_limit)

    def _popen(
        self,
        workdir: Path,
        argv: list[str],
        slot: Slot,
        writable: bool,
        limits: SandboxLimits | None = None,
        ro_binds: tuple[str, ...] = (),
    ) -> subprocess.Popen[bytes]:
        if self.cgroups is not None:
            self.cgroups.prepare(slot.uid)
        read_fd, write_fd = os.pipe()
        block_read, block_write = os.pipe()
        try:
            os.write(write_fd, seccomp.build_filter())
            os.close(write_fd)
            write_fd = -1
            popen = subprocess.Popen(
                self.command(argv, read_fd, writable=writable, block_fd=block_read, limits=limits, ro_binds=ro_binds),
                cwd=workdir,
                user=slot.uid,
                group=slot.gid,
                extra_groups=[],
                env={"PATH": "/usr/bin:/bin"},
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=(read_fd, block_read),
                start_new_session=True,
                close_fds=True,
            )
            # bwrap waits on the block fd before running the command: every process
            # of the slot joins the slot's cgroups first, so nothing escapes them.
            if self.cgroups is not None:
                try:
                    self.cgroups.attach_all(slot.uid)
                except (OSError, RuntimeError) as exc:
                    SandboxedProcess(popen, slot, workdir, None).kill()
                    popen.wait(timeout=5)
                    raise SandboxUnavailable(f"cannot put the bot into its cgroups: {exc}") from exc
            os.write(block_write, b"go")
            return popen
        finally:
            for fd in (read_fd, block_read, block_write, write_fd):
                if fd >= 0:
                    os.close(fd)

    def run(
        self,
        files: Path,
        argv: list[str],
        *,
        timeout_s: float,
        output_cap: int = 256 * 1024,
        collect_out: Path | None = None,
        limits: SandboxLimits | None = None,
        ro_binds: tuple[str, ...] = (),
    ) -> RunResult:
        """Run to completion (or ``timeout_s``); optionally hand back what it wrote to ``/out``."""
        proc = self.spawn(files, argv, writable_out=collect_out is not None, limits=limits, ro_binds=ro_binds)
        try:
            result = _communicate(proc.popen, timeout_s, output_cap)
            if collect_out is not None and result.returncode == 0 and not result.timed_out:
                kill_uid(proc.uid)  # nothing may still be writing to /out
                shutil.copytree(proc.workdir / "out", collect_out, symlinks=True, dirs_exist_ok=True)
            return result
        finally:
            proc.close()


def _close_unclaimed(started: Future[SandboxedProcess]) -> None:
    if started.cancelled() or started.exception() is not None:
        return
    started.result().close()


def refuse_links(files: Path) -> None:
    """Staging runs as root and chowns what it copies: symlinks and special files are refused."""
    paths = [files]
    if not files.is_symlink() and files.is_dir():
        paths += list(files.rglob("*"))
    for path in paths:
        mode = path.lstat().st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            raise BundleRejected(f"{path.name} is a symlink or special file; bots are plain files only")


def _communicate(popen: subprocess.Popen[bytes], timeout_s: float, cap: int) -> RunResult:
    """Like Popen.communicate but never holds more than ``cap`` bytes per stream."""
    chunks: dict[str, bytearray] = {"out": bytearray(), "err": bytearray()}

    def drain(name: str, stream: io.BufferedIOBase) -> None:
        buf = chunks[name]
        while True:
            data = stream.read1(65536)
            if not data:
                return
            room = cap - len(buf)
            if room > 0:
                buf += data[:room]

    assert popen.stdin is not None
    popen.stdin.close()
    threads = [
        threading.Thread(target=drain, args=("out", popen.stdout), daemon=True),
        threading.Thread(target=drain, args=("err", popen.stderr), daemon=True),
    ]
    for t in threads:
        t.start()
    timed_out = False
    try:
        popen.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.killpg(popen.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        popen.wait(timeout=5)
    for t in threads:
        t.join(timeout=2)
    return RunResult(popen.returncode, bytes(chunks["out"]), bytes(chunks["err"]), timed_out)
