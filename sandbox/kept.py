"""Sandboxed processes kept between games, so that a bot is started once, not once per game.

A bot that asks for it (protocol v1's ``more_games``, docs/bot-protocol.md) stays running after a
game that ended cleanly and waits here for its next one.  A kept process is handed out again only

* for the same key (the same bot version, files, command and limits: never another bot's game),
* for a game of another deal: a process never plays two games of one deal, so nothing it saw of a
  deal at one table can serve it at another,
* while it is alive and has used less than half its CPU-time limit (the rlimit counts for the whole
  process, across its games: a fresh process starts before it could run out mid-game),
* within ``idle_s`` of its last game; a reaper thread closes the rest, freeing their slots.

While it idles, a kept process lends its sandbox slot (its uid): any worker process that needs a slot
takes a free one first and a lent one only when none is free, killing the idle process (sandbox.slots).
So keeping never makes a bot wait for a slot; at most ``capacity`` are kept per process (their memory).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable
from dataclasses import dataclass, field

from .process import SandboxedProcess

# How often the reaper looks for kept processes killed by a claimer of their lent slot.
LOST_CHECK_S = 1.0


@dataclass
class _Kept:
    key: Hashable
    process: SandboxedProcess
    deals: frozenset[int]
    games: int
    idle_since: float = field(default_factory=time.monotonic)


class KeptProcesses:
    def __init__(self, capacity: int, idle_s: float = 20.0, cpu_share: float = 0.5, max_games: int = 1000) -> None:
        self.capacity = capacity
        self.idle_s = idle_s
        self.cpu_share = cpu_share
        self.max_games = max_games
        self._kept: list[_Kept] = []
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._reaper: threading.Thread | None = None

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)

    def processes(self) -> list[SandboxedProcess]:
        """The processes kept now, longest idle first."""
        with self._lock:
            return [entry.process for entry in self._kept]

    def take(self, key: Hashable, deal: int | None) -> tuple[SandboxedProcess, frozenset[int], int] | None:
        """A kept process for ``key`` that never played ``deal``, with the deals and games it played."""
        while True:
            found: _Kept | None = None
            with self._lock:
                for entry in self._kept:
                    if entry.key == key and (deal is None or deal not in entry.deals):
                        self._kept.remove(entry)
                        found = entry
                        break
            if found is None:
                return None
            if found.process.reclaim_slot() and found.process.popen.poll() is None:
                return found.process, found.deals, found.games
            found.process.close()  # its slot went to another bot, which killed it; or it exited

    def give(self, key: Hashable, process: SandboxedProcess, deals: frozenset[int], games: int) -> bool:
        """Keep ``process`` for the next game of ``key``; False (and the process closed) when it may not be."""
        if (
            self.capacity <= 0
            or games >= self.max_games
            or process.popen.poll() is not None
            or process.cpu_seconds() >= process.cpu_limit_s * self.cpu_share
            or not process.lend_slot()
        ):
            process.close()
            return False
        evicted: list[_Kept] = []
        with self._lock:
            self._kept.append(_Kept(key, process, deals, games))
            while len(self._kept) > self.capacity:
                evicted.append(self._kept.pop(0))
            self._start_reaper()
            self._wake.notify()
        for entry in evicted:
            entry.process.close()
        return True

    def close_all(self) -> None:
        with self._lock:
            entries, self._kept = self._kept, []
        for entry in entries:
            entry.process.close()

    def _start_reaper(self) -> None:
        if self._reaper is None or not self._reaper.is_alive():
            self._reaper = threading.Thread(target=self._reap, name="sandbox-kept-reaper", daemon=True)
            self._reaper.start()

    def _reap(self) -> None:
        while True:
            with self._lock:
                if not self._kept:
                    self._reaper = None
                    return
                now = time.monotonic()
                # Idle too long, or killed by a claimer that took its lent slot: its mark goes with it.
                expired = [
                    entry
                    for entry in self._kept
                    if now - entry.idle_since >= self.idle_s or entry.process.popen.poll() is not None
                ]
                for entry in expired:
                    self._kept.remove(entry)
                if not expired:
                    oldest = min(entry.idle_since for entry in self._kept)
                    self._wake.wait(timeout=min(LOST_CHECK_S, max(0.05, oldest + self.idle_s - now)))
            for entry in expired:
                entry.process.close()
