"""Bot programs and URLs on the local command line, played exactly as the arena plays them.

`LocalBots` is the bot resolver the `part-du-chef` command hands to the games command line: it
understands a source file in any of the arena's languages (`.py`, `.js`, `.c`, `.cpp`, `.rs`, `.go`,
`.java`), a folder or `.zip` holding `main.<ext>` (or a ready-built `main`), and an `http(s)` URL
(localhost allowed, it is your machine). A program is checked, unpacked and built as an upload is
(`sandbox.build`, same compilers and flags), runs inside the sandbox when it can start here
(`--no-sandbox` runs it bare and says so), and every game goes through
`botclient.match.play_with_sessions`: the same messages, time limits, time bank and failure policy as
a match in the arena.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from games.part_du_chef import State
from games.part_du_chef.seating import BotError, NamedBot, Outcome, Pace, Played, looks_like_program
from sandbox import BundleRejected, Sandbox, SandboxConfig, SandboxUnavailable
from sandbox.build import BuildFailed, prepare_bot
from sandbox.bundle import BundleLimits
from sandbox.languages import BUILD_INFO

from . import limits
from .bare import BareBot
from .http import HttpBot, UnsafeEndpoint, parse_endpoint
from .lockstep import play_deal_in_lockstep
from .match import play_with_sessions
from .session import BotSession, ServerBusy, SessionLimits
from .stdio import SandboxedBot

# Slot uids and lock files of the local command, apart from an arena worker's on the same machine
# (a slot's processes are killed when it is taken, so two users of one uid range would kill each other's bots).
LOCAL_BASE_UID = int(os.environ.get("PART_DU_CHEF_SANDBOX_UID", "61000"))
LOCAL_STATE_DIR = Path(os.environ.get("PART_DU_CHEF_SANDBOX_DIR", "/run/part-du-chef-sandbox"))
# `compare` runs every bot program of a deal's games at once (lockstep, below): up to 10 games of 5 seats.
LOCAL_SLOTS = int(os.environ.get("PART_DU_CHEF_SANDBOX_SLOTS", "64"))


def local_sandbox_config() -> SandboxConfig:
    return SandboxConfig(state_dir=LOCAL_STATE_DIR, base_uid=LOCAL_BASE_UID, slots=LOCAL_SLOTS)


class LocalBots:
    """Resolves bot programs and URLs into protocol v1 sessions, one fresh session per game."""

    def __init__(
        self,
        *,
        sandbox_config: SandboxConfig | None = None,
        out: TextIO | None = None,
        move_ms: int = limits.MOVE_MS,
        bank_ms: int = limits.BANK_MS,
        start_ms: int = limits.START_MS,
    ) -> None:
        self.sandbox_config = sandbox_config
        self.out = out
        self.limits: SessionLimits = {"move_ms": move_ms, "bank_ms": bank_ms, "start_ms": start_ms}
        self.bare = False
        self.verbose = False
        self._sandbox: Sandbox | None = None
        self._tmp: Path | None = None
        self._prepared: dict[Path, Path] = {}
        self._labels: dict[int, str] = {}  # session id -> its name on the command line, until its game ends
        self._sessions: dict[int, BotSession] = {}  # session id -> the session, until its game ends
        self._programs: set[Callable[[int], Any]] = set()  # the makers of bot programs' sessions
        self._warned_bare = False
        # The games of a deal play on threads of their own: one line printed at a time, one warning.
        self._lock = threading.Lock()

    # -- the resolver interface (games.part_du_chef.seating.BotResolver) --------------------------

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--no-sandbox",
            action="store_true",
            help="run bot programs bare, with your own rights (only for your own bot on your own machine)",
        )
        parser.add_argument("--verbose", action="store_true", help="show what bot programs write to stderr")

    def configure(self, args: argparse.Namespace) -> None:
        self.bare = bool(getattr(args, "no_sandbox", False))
        self.verbose = bool(getattr(args, "verbose", False))

    def resolve(self, spec: str) -> Callable[[int], Any] | None:
        if spec.lower().startswith(("http://", "https://")):
            try:
                parse_endpoint(spec)
            except UnsafeEndpoint as exc:
                raise BotError(f"{spec}: {exc}") from None
            return lambda seed: self._hosted(spec)
        if "://" in spec:
            raise BotError(f"{spec}: only http and https bot URLs are accepted")
        path = Path(spec).expanduser()
        if not path.exists():
            if looks_like_program(spec):
                raise BotError(f"{spec}: no such file or folder")
            return None
        files = self._prepare(path.resolve(), spec)

        def make(seed: int) -> BotSession:
            return self._program(files, spec)

        self._programs.add(make)
        return make

    def play(self, state: State, seats: Sequence[Any], pace: Pace | None = None) -> Outcome:
        options: dict[str, Any] = {"marianne": True} if state.marianne_enabled else {}
        try:
            played = play_with_sessions(state, seats, options, replacement_seed=state.seed, pace=pace)
        except ServerBusy as exc:
            # No slot came free in time: they are shared with every other part-du-chef run on this machine.
            raise BotError(f"{exc} (PART_DU_CHEF_SANDBOX_SLOTS; another part-du-chef may be running)") from None
        finally:
            labels = {seat: self._labels.pop(id(bot), f"seat {seat}") for seat, bot in enumerate(seats)}
            for bot in seats:
                self._sessions.pop(id(bot), None)
        if self.verbose:
            for move in played.moves:
                if move.status != "ok":
                    label = labels[move.seat]
                    said = f"; it answered {move.answer}" if move.answer is not None else ""
                    self._say(f"[{label}, seat {move.seat}] {move.when}: {move.status}: {move.error}{said}")
        return Outcome(tuple(played.forfeit_reasons), tuple(played.stand_in))

    def play_deal(self, lineups: Sequence[Sequence[NamedBot]], seed: int, marianne: bool) -> list[Played]:
        """The deal's games side by side in lockstep, as the server plays a comparison's deal: a bot that
        remembers (a hosted bot is one server for every game) sees no pizza in one game before every game
        of the deal has shown it."""
        programs = sum(bot.make in self._programs for lineup in lineups for bot in lineup)
        if programs and not self.bare:
            # Every game holds its programs' sandbox slots until the deal ends: a game waiting for a slot
            # would hold the others back, and they would never give theirs up.
            slots = self._box().config.slots
            if programs > slots:
                raise BotError(
                    f"compare plays the {len(lineups)} games of a deal side by side, {programs} bot programs at once, "
                    f"and the sandbox has {slots} slots: set PART_DU_CHEF_SANDBOX_SLOTS to {programs} or more"
                )
        return play_deal_in_lockstep(lineups, seed, marianne)

    def close(self) -> None:
        # The games of a deal play on threads of their own: when the command stops mid-deal (Ctrl-C), their
        # bots are stopped here, as a game played on the command's own thread stops its bots as it ends.
        for session in list(self._sessions.values()):
            session.close()
        if self._sandbox is not None:
            self._sandbox.kept.close_all()  # bots kept for a next game that will not come
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    # -- preparing programs as uploads are prepared -------------------------------------------------

    def _workdir(self) -> Path:
        if self._tmp is None:
            self._tmp = Path(tempfile.mkdtemp(prefix="part-du-chef-bots-"))
        return self._tmp

    def _prepare(self, path: Path, spec: str) -> Path:
        """A runnable bot folder, checked, unpacked and built as the arena does an upload.

        A file or zip is built once per content into the cache folder (``PART_DU_CHEF_CACHE``, by
        default ``~/.cache/part-du-chef/builds``); a folder is built afresh each run.
        """
        if path in self._prepared:
            return self._prepared[path]
        try:
            if path.is_dir():
                dest = self._workdir() / f"bot{len(self._prepared)}"
                self._build(path, dest, path.name)
            else:
                data = path.read_bytes()
                key = hashlib.sha256(path.name.encode() + b"\0" + data).hexdigest()
                dest = cache_dir() / key
                if not (dest / BUILD_INFO).is_file():
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    work = Path(tempfile.mkdtemp(prefix=f".{key[:12]}-", dir=dest.parent))
                    try:
                        self._build(path, work / "bot", path.name)
                        shutil.rmtree(dest, ignore_errors=True)
                        os.rename(work / "bot", dest)
                    finally:
                        shutil.rmtree(work, ignore_errors=True)
        except BuildFailed as exc:
            raise BotError(f"{spec}: {exc}\n{exc.log}") from None
        except BundleRejected as exc:
            raise BotError(f"{spec}: {exc}") from None
        except OSError as exc:
            raise BotError(f"{spec}: {exc.strerror or exc}") from None
        self._prepared[path] = dest
        return dest

    def _build(self, source: Path, dest: Path, filename: str) -> None:
        prepare_bot(source, dest, None if self.bare else self._box(), BundleLimits(), filename=filename)

    def _box(self) -> Sandbox:
        if self._sandbox is None:
            box = Sandbox(self.sandbox_config or local_sandbox_config())
            try:
                box.check()
            except SandboxUnavailable as exc:
                raise BotError(
                    f"the sandbox cannot start here ({exc}); --no-sandbox runs bot programs bare, with your rights"
                ) from None
            self._sandbox = box
        return self._sandbox

    # -- one session per game (a sandboxed bot that asks for it keeps its process: sandbox.kept) --

    def _program(self, files: Path, label: str) -> BotSession:
        session: BotSession
        if self.bare:
            with self._lock:
                warn, self._warned_bare = not self._warned_bare, True
            if warn:
                self._say("note: --no-sandbox: bot programs run bare, with your rights (the arena sandboxes them)")
            session = BareBot(files, **self.limits)
        else:
            try:
                session = SandboxedBot(files, sandbox=self._box(), **self.limits)
            except BundleRejected as exc:
                raise BotError(f"{label}: {exc}") from None
        return self._watch(session, label)

    def _hosted(self, url: str) -> BotSession:
        # Your own machine: a bot on localhost or the local network is what you are testing.
        return self._watch(HttpBot(url, allow_private=True, **self.limits), url)

    def _watch(self, session: BotSession, label: str) -> BotSession:
        self._labels[id(session)] = label
        self._sessions[id(session)] = session
        if self.verbose:
            session.on_stderr = lambda text: self._echo(label, text)
        return session

    def _echo(self, label: str, text: str) -> None:
        for line in text.splitlines():
            self._say(f"[{label}] {line}")

    def _say(self, line: str) -> None:
        with self._lock:
            print(line, file=self.out or sys.stderr, flush=True)


def cache_dir() -> Path:
    """Where built bot programs are kept between runs (one folder per file content)."""
    configured = os.environ.get("PART_DU_CHEF_CACHE")
    if configured:
        return Path(configured).expanduser()
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "part-du-chef" / "builds"
