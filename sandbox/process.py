"""A running sandboxed command: its slot, its staged files, and how to end all of it."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
from pathlib import Path

from .cgroups import SlotCgroups
from .slots import Slot, kill_uid

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class SandboxedProcess:
    """A running sandboxed command; ``close()`` kills all of it and cleans up."""

    def __init__(
        self,
        popen: subprocess.Popen[bytes],
        slot: Slot,
        workdir: Path,
        cgroups: SlotCgroups | None = None,
        cpu_limit_s: float = 60.0,
    ) -> None:
        self.popen = popen
        self.slot = slot
        self.workdir = workdir
        self.cgroups = cgroups
        # The CPU-time rlimit it was started with: it counts for the process's whole life, across games.
        self.cpu_limit_s = cpu_limit_s
        self._closed = False
        self._lock = threading.Lock()
        self._waiting_pids: list[str] = []  # cpu_wait_mark's processes, as the last full look found them

    @property
    def uid(self) -> int:
        return self.slot.uid

    def hit_memory_limit(self) -> bool:
        """Whether the slot's memory cgroup refused memory since the start (False without cgroups)."""
        return self.cgroups is not None and self.cgroups.hit_memory_limit(self.slot.uid)

    def cpu_seconds(self) -> float:
        """CPU time used so far by the bot and whatever it started (0 once closed)."""
        with self._lock:
            return 0.0 if self._closed else cpu_seconds_of_uid(self.slot.uid)

    def cpu_wait_mark(self) -> dict[str, float]:
        """Where the bot's CPU waits stand now (``cpu_waits_of``), for ``cpu_wait_since``: read cheaply, from
        the processes the last full look found (a first mark looks at every process of the slot's uid)."""
        with self._lock:
            if self._closed or not self.slot.held:  # a lent slot's uid may be another bot's by now
                return {}
            if not self._waiting_pids:
                self._waiting_pids = pids_of_uid(self.slot.uid)
            return {pid: cpu_wait_seconds_of_pid(pid) for pid in self._waiting_pids}

    def cpu_wait_since(self, mark: dict[str, float]) -> float:
        """The longest time one of the bot's threads has waited for a CPU since ``mark`` (every process of the
        slot's uid looked at afresh; one started since counts from its start); 0 once closed."""
        with self._lock:
            if self._closed or not self.slot.held:
                return 0.0
            self._waiting_pids = pids_of_uid(self.slot.uid)
            now = {pid: cpu_wait_seconds_of_pid(pid) for pid in self._waiting_pids}
        return max((wait - mark.get(pid, 0.0) for pid, wait in now.items()), default=0.0)

    def kill(self) -> None:
        """Kill every process of the bot (pipes stay open: readers see end of file)."""
        with self._lock:
            # Once closed (or its slot lent), the slot may already belong to another bot.
            if not self._closed and self.slot.held:
                self._kill_all()

    def lend_slot(self) -> bool:
        """While it idles between games (sandbox.kept), its slot may go to a bot that needs one."""
        with self._lock:
            return not self._closed and self.slot.lend()

    def reclaim_slot(self) -> bool:
        """Hold its slot again before its next game; False if a claimer took it (and killed it)."""
        with self._lock:
            return not self._closed and self.slot.reclaim()

    def _kill_all(self) -> None:
        try:
            os.killpg(self.popen.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        # --new-session puts the bot in its own session, out of reach of
        # killpg; every process of the slot uid is the bot's, so kill those.
        kill_uid(self.slot.uid)

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            held = self.slot.reclaim()
            if held:
                try:
                    self._kill_all()
                except BaseException:
                    self.slot.release()
                    shutil.rmtree(self.workdir, ignore_errors=True)
                    raise
        if not held:
            # A lent slot was taken by another bot, which killed this idle process with every process of
            # the uid: only our own child is left to reap; the uid, its cgroups and staging are the new holder's.
            try:
                os.killpg(self.popen.pid, signal.SIGKILL)  # our unreaped child: the pid is no one else's
            except ProcessLookupError:
                pass
            try:
                self._reap()
            finally:
                self.slot.give_up()
            return
        try:
            self._reap()
        finally:
            shutil.rmtree(self.workdir, ignore_errors=True)
            if self.cgroups is not None:
                self.cgroups.remove(self.slot.uid)
            self.slot.release()

    def _reap(self) -> None:
        try:
            self.popen.wait(timeout=5)
        finally:
            close_pipes(self.popen)


def close_pipes(popen: subprocess.Popen[bytes]) -> None:
    """Close our ends of a child's stdin, stdout and stderr, whatever state they are in."""
    for stream in (popen.stdin, popen.stdout, popen.stderr):
        if stream is not None:
            try:
                stream.close()
            except OSError:
                pass


def cpu_seconds_of_uid(uid: int) -> float:
    """CPU time (user and system) of the live processes of ``uid``: a sandbox slot's bot and its children."""
    total = 0
    for pid in pids_of_uid(uid):
        try:
            with open(f"/proc/{pid}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # exited meanwhile
        # After the command name, utime and stime are the 12th and 13th fields (14 and 15 of proc(5)).
        total += int(fields[11]) + int(fields[12])
    return total / CLOCK_TICKS


def cpu_wait_seconds_of_pid(pid: int | str) -> float:
    """The longest time one thread of process ``pid`` has spent ready to run but waiting for a CPU (the run
    delay of /proc/<pid>/task/<tid>/schedstat, in nanoseconds): the machine's slowness, never the thread's.

    The longest thread's, not the sum: a bot's threads that wait for each other's CPU would otherwise
    add up to more than the time that passed. A thread that has exited counts no more (never more credit).
    """
    longest = 0
    try:
        tasks = os.scandir(f"/proc/{pid}/task")
    except OSError:
        return 0.0
    with tasks:
        for task in tasks:
            try:
                with open(f"/proc/{pid}/task/{task.name}/schedstat") as fh:
                    longest = max(longest, int(fh.read().split()[1]))
            except (OSError, IndexError, ValueError):
                continue  # exited meanwhile
    return longest / 1e9


def pids_of_uid(uid: int) -> list[str]:
    """The live processes of ``uid`` (a sandbox slot's bot and its children). A process directory in /proc
    belongs to the process's effective uid: one stat per process, not a read."""
    pids = []
    for entry in os.scandir("/proc"):
        try:
            if entry.name.isdigit() and entry.stat().st_uid == uid:
                pids.append(entry.name)
        except OSError:
            continue  # exited meanwhile
    return pids
