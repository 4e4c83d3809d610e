"""Per-slot unprivileged user ids for sandboxed bots.

Each running bot gets a slot: a numeric uid/gid pair with no account, used by
nothing else on the machine.  That makes two limits exact: RLIMIT_NPROC counts
processes per uid, so a fork bomb only exhausts its own slot, and at the end
"every process of this uid" is precisely the bot and whatever it spawned, so
killing them all cannot hurt anything else.  Slots are claimed with ``flock``
on a lock file per slot, which the kernel releases if the worker dies.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .errors import SandboxBusy

KILL = "/usr/bin/kill"


@dataclass
class Slot:
    index: int
    uid: int
    gid: int
    _lock_fd: int
    lock_dir: Path | None = None
    # Held while the slot is lent (sandbox.kept): its process idles on it, and any claimer may take it back.
    _kept_fd: int = -1

    @property
    def held(self) -> bool:
        return self._lock_fd >= 0

    def release(self) -> None:
        if self._lock_fd >= 0:
            fd, self._lock_fd = self._lock_fd, -1
            os.close(fd)  # closing the descriptor drops the flock
        self.give_up()

    def lend(self) -> bool:
        """Let go of the slot while its process idles, marked as kept: a claimer takes a free slot first,
        a kept one only when none is free (and then its idle process is killed). False: not lent."""
        if self._lock_fd < 0 or self.lock_dir is None:
            return False
        fd = _try_lock(self.lock_dir / f"slot-{self.index}.kept")
        if fd is None:
            return False  # an earlier keeper of this slot has not let go of its mark yet
        self._kept_fd = fd
        fd, self._lock_fd = self._lock_fd, -1
        os.close(fd)
        return True

    def reclaim(self) -> bool:
        """Hold a lent slot again; False if a claimer took it meanwhile (its idle process is gone)."""
        if self._lock_fd >= 0:
            return True
        if self.lock_dir is None:
            return False
        fd = _try_lock(self.lock_dir / f"slot-{self.index}.lock")
        if fd is None:
            return False
        self._lock_fd = fd
        self.give_up()
        return True

    def give_up(self) -> None:
        """Drop the kept mark (the slot is held again, or was taken by another claimer)."""
        if self._kept_fd >= 0:
            fd, self._kept_fd = self._kept_fd, -1
            os.close(fd)


def _try_lock(path: Path) -> int | None:
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


class SlotPool:
    def __init__(self, lock_dir: Path, base_uid: int = 62000, count: int = 16) -> None:
        if base_uid < 1000:
            raise ValueError("sandbox uids must not collide with system accounts (use 1000 or above)")
        self.lock_dir = Path(lock_dir)
        self.base_uid = base_uid
        self.count = count

    def uids(self) -> range:
        return range(self.base_uid, self.base_uid + self.count)

    def acquire(self, wait_s: float = 10.0) -> Slot:
        self.lock_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        deadline = time.monotonic() + wait_s
        while True:
            # A free slot first; else one lent by a keeper (sandbox.kept), whose idle process dies here.
            for kept_too in (False, True):
                for index in range(self.count):
                    slot = self._try(index, kept_too)
                    if slot is not None:
                        # A worker killed mid-match may have left processes behind.
                        kill_uid(slot.uid)
                        return slot
            if time.monotonic() >= deadline:
                raise SandboxBusy(
                    f"all {self.count} sandbox slots are busy; raise the slot count or run fewer matches at once"
                )
            time.sleep(0.05)

    def _try(self, index: int, kept_too: bool) -> Slot | None:
        fd = _try_lock(self.lock_dir / f"slot-{index}.lock")
        if fd is None:
            return None
        if not kept_too:
            mark = _try_lock(self.lock_dir / f"slot-{index}.kept")
            if mark is None:
                os.close(fd)  # lent to a kept process: taken only if no slot is free
                return None
            os.close(mark)
        uid = self.base_uid + index
        return Slot(index=index, uid=uid, gid=uid, _lock_fd=fd, lock_dir=self.lock_dir)


def processes_of(uid: int) -> list[int]:
    """Pids of live (non-zombie) processes whose real, effective or saved uid is ``uid``."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            status = Path(entry.path, "status").read_text()
        except OSError:
            continue
        uids: list[int] = []
        state = ""
        for line in status.splitlines():
            if line.startswith("Uid:"):
                uids = [int(x) for x in line.split()[1:4]]
            elif line.startswith("State:"):
                state = line.split()[1]
        if uid in uids and state != "Z":
            found.append(int(entry.name))
    return found


def kill_uid(uid: int, timeout_s: float = 5.0) -> None:
    """SIGKILL every process of ``uid``, repeating until none is left.

    ``kill(-1, SIGKILL)`` sent *as that uid* reaches exactly the processes the
    uid may signal, i.e. its own, including those in other sessions or pid
    namespaces, and is not raced by forks the way scanning /proc would be.
    (``-KILL``: procps-ng's kill takes no ``-s`` before a negative pid.)
    """
    deadline = time.monotonic() + timeout_s
    while True:
        if not processes_of(uid):
            return
        subprocess.run(
            [KILL, "-KILL", "--", "-1"],
            user=uid,
            group=uid,
            extra_groups=[],
            env={},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        if not processes_of(uid):
            return
        if time.monotonic() >= deadline:
            raise RuntimeError(f"processes of sandbox uid {uid} survived SIGKILL: {processes_of(uid)}")
        time.sleep(0.01)
