"""Per-slot control groups (cgroup v1 ``memory`` and ``pids``) on top of the rlimits.

RLIMIT_AS bounds each process and RLIMIT_NPROC the number of processes, but
32 processes of 512 MB each, plus files in the private ``/tmp``, would still
be 16 GB.  A memory cgroup per slot bounds the *sum* (page cache and tmpfs
pages included), and a pids cgroup counts every task, threads included.

The sandboxed command is held by bubblewrap's ``--block-fd`` until every
process of the slot has been moved into the slot's groups, so nothing runs
outside them.  Machines without writable cgroup v1 controllers (e.g. a
cgroup v2-only host) run with the rlimits alone; ``Sandbox.cgroups`` says
which.
"""

from __future__ import annotations

import os
from pathlib import Path

from .slots import processes_of

ROOT = Path("/sys/fs/cgroup")
GROUP = "arena-sandbox"


class SlotCgroups:
    def __init__(self, memory_bytes: int, tasks: int, root: Path = ROOT) -> None:
        self.memory_bytes = memory_bytes
        self.tasks = tasks
        self.root = root
        self._oom_baseline: dict[int, int] = {}

    def available(self) -> str | None:
        """None if usable, else why not."""
        for controller in ("memory", "pids"):
            base = self.root / controller
            if not (base / "cgroup.procs").exists():
                return f"no cgroup v1 {controller} controller at {base}"
            if not os.access(base, os.W_OK):
                return f"{base} is not writable"
        return None

    def _dirs(self, uid: int) -> tuple[Path, Path]:
        return (self.root / "memory" / GROUP / f"uid-{uid}", self.root / "pids" / GROUP / f"uid-{uid}")

    def prepare(self, uid: int) -> None:
        memory, pids = self._dirs(uid)
        for path in (memory, pids):
            path.mkdir(parents=True, exist_ok=True)
        _write(memory / "memory.limit_in_bytes", self.memory_bytes)
        swap = memory / "memory.memsw.limit_in_bytes"
        if swap.exists():
            _write(swap, self.memory_bytes)  # no escape into swap
        _write(memory / "memory.oom_control", 0)  # the kernel kills inside the group at the limit
        _write(pids / "pids.max", self.tasks)
        self._oom_baseline[uid] = self._oom_kills(uid)

    def remove(self, uid: int) -> None:
        """Drop the slot's groups once its processes are gone (they are made again on the next run)."""
        for path in self._dirs(uid):
            try:
                path.rmdir()
            except OSError:
                pass  # still busy or already gone: prepare() reuses it

    def attach_all(self, uid: int, rounds: int = 50) -> None:
        """Move every process of ``uid`` into its groups, until a pass finds none outside."""
        memory, pids = self._dirs(uid)
        for _ in range(rounds):
            outside = [pid for pid in processes_of(uid) if not self._inside(pid, uid)]
            if not outside:
                return
            for pid in outside:
                for path in (memory, pids):
                    try:
                        _write(path / "cgroup.procs", pid)
                    except ProcessLookupError:
                        pass
        raise RuntimeError(f"could not move the processes of uid {uid} into their cgroups")

    def _inside(self, pid: int, uid: int) -> bool:
        try:
            text = Path(f"/proc/{pid}/cgroup").read_text()
        except OSError:
            return True  # gone
        wanted = f"/{GROUP}/uid-{uid}"
        found = {"memory": False, "pids": False}
        for line in text.splitlines():
            _, controllers, path = line.split(":", 2)
            for controller in controllers.split(","):
                if controller in found:
                    found[controller] = path == wanted
        return all(found.values())

    def _oom_kills(self, uid: int) -> int:
        memory, _ = self._dirs(uid)
        try:
            for line in (memory / "memory.oom_control").read_text().splitlines():
                if line.startswith("oom_kill "):
                    return int(line.split()[1])
        except (OSError, ValueError):
            pass
        return 0

    def hit_memory_limit(self, uid: int) -> bool:
        """Whether the kernel killed a process of this slot for memory since it was last prepared."""
        return self._oom_kills(uid) > self._oom_baseline.get(uid, 0)


def _write(path: Path, value: int) -> None:
    with open(path, "w") as fh:
        fh.write(str(value))
