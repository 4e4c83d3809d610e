"""The bot session the match runner drives: start, act per decision, end, close.

A failure (timeout, crash, invalid reply) stops the bot for good: the runner
hands the seat to a built-in bot, and later calls answer at once with the
same status instead of waiting again.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Self, TypedDict

from . import limits
from .protocol import (
    CRASH,
    OK,
    BotFailure,
    MoveResult,
    TimeBudget,
    act_message,
    answer_excerpt,
    decode_reply,
    end_message,
    start_message,
)


class ServerBusy(Exception):
    """The server could not get the bot ready in time (its sandbox, a slot, a slow machine): no fault of the
    bot. Not a BotFailure: nobody forfeits; whoever plays the game gives it back and plays it later."""


class Exchange:
    """What a transport got back for one message."""

    __slots__ = ("answer", "error", "raw", "status", "stderr", "waited_s")

    def __init__(
        self,
        raw: bytes | None,
        status: str = OK,
        error: str | None = None,
        stderr: str = "",
        answer: bytes | None = None,
        waited_s: float = 0.0,
    ) -> None:
        self.raw = raw
        self.status = status
        self.error = error
        self.stderr = stderr
        # What the bot sent when the transport itself refused it (too long, several lines...).
        self.answer = answer
        # The time the bot's process waited for a CPU the machine was giving others: not the bot's.
        self.waited_s = waited_s


class SessionLimits(TypedDict, total=False):
    """The keyword arguments of every session's limits (BotSession.__init__)."""

    move_ms: int
    bank_ms: int
    start_ms: int
    launch_ms: int | None
    game: str


class BotSession(ABC):
    def __init__(
        self,
        *,
        move_ms: int = limits.MOVE_MS,
        bank_ms: int = limits.BANK_MS,
        start_ms: int = limits.START_MS,
        launch_ms: int | None = None,
        game: str = "part-du-chef",
    ) -> None:
        self.budget = TimeBudget(move_ms, bank_ms)
        self.start_ms = start_ms
        # The server's own part of a start (a sandbox's slot, staging, spawning), limited apart from the
        # bot's: past it the session raises ServerBusy. None: no limit of its own.
        self.launch_ms = launch_ms
        self.game = game
        self.failure: MoveResult | None = None
        self.started = False
        # The deal (its seed) of this session's game: a process kept between games never plays one twice.
        self.deal: int | None = None
        # The bot answered "ready" with "more_games": true: it stays running for another game after "end".
        self.more_games = False
        # "end" reached the bot after a game played to its end without a failure.
        self.ended = False
        # Called with what the bot wrote to stderr during each request (the local command's --verbose).
        self.on_stderr: Callable[[str], None] | None = None
        # The arena's bot version playing through this session (submissions), kept in the match log.
        self.version_id: int | None = None

    # -- transport, supplied by subclasses -----------------------------------------

    # Whether getting the bot ready to receive "start" (``_launch``) is the server's work, not the bot's: a
    # sandboxed process is (its clock starts once it runs); resolving a hosted bot's address is not.
    launch_is_servers = False

    @abstractmethod
    def _launch(self) -> None:
        """Get the bot ready to receive the start message (spawn it, resolve its host...)."""

    @abstractmethod
    def _exchange(self, message: dict[str, Any], timeout_s: float, reply: bool) -> Exchange:
        """Send ``message``; when ``reply``, wait at most ``timeout_s`` for one reply."""

    @abstractmethod
    def _shutdown(self) -> None:
        """Release everything; must be idempotent."""

    # -- the session -----------------------------------------------------------------

    def start(self, seat: int, players: int, options: dict[str, Any] | None = None, *, deal: int | None = None) -> None:
        """Raises BotFailure if the bot is not ready within the start limit.

        ``deal``: the game's seed; a bot process kept between games (``more_games``) is handed only games of
        deals it has not played. Without it the process is not kept.
        """
        self.deal = deal
        began = time.monotonic()
        try:
            self._launch()
        except BotFailure as exc:
            self._fail(exc.result)
            raise
        except ServerBusy:
            self._shutdown()
            raise
        launched = time.monotonic()
        if self.launch_is_servers:
            took_ms = (launched - began) * 1000
            if self.launch_ms is not None and took_ms > self.launch_ms:
                self._shutdown()
                raise ServerBusy(
                    f"the server took {took_ms:.0f} ms to get the bot ready, past its limit of {self.launch_ms} ms"
                )
            # The bot's own clock starts here: once its process runs and "start" is written to it.
            began = launched
        remaining = self.start_ms / 1000 - (launched - began)
        message = start_message(seat, players, dict(options or {}), self.game)
        result = self._request(message, max(remaining, 0.001), "ready", began)
        if not result.ok:
            raise BotFailure(result)
        self.more_games = result.action is not None and result.action.get("more_games") is True
        self.started = True

    def act(self, observation: dict[str, Any], time_ms: int | None = None) -> MoveResult:
        if self.failure is not None:
            return MoveResult(
                None,
                self.failure.status,
                0.0,
                "",
                f"bot already stopped: {self.failure.error}",
            )
        if not self.started:
            raise RuntimeError("act() before a successful start()")
        available = self.budget.available_ms()
        if time_ms is not None:
            available = max(1, min(available, int(time_ms)))
        began = time.monotonic()
        result = self._request(act_message(observation, available), available / 1000, "action", began)
        if result.ok:
            self.budget.charge(result.latency_ms)
        return result

    def end(self, scores: list[Any], ranks: list[int]) -> None:
        """Tell the bot the result (no reply expected), then stop it (or keep it for another game, see StdioBot)."""
        try:
            if self.failure is None and self.started:
                got = self._exchange(end_message(scores, ranks), 0.2, reply=False)
                self._echo(got.stderr)
                self.ended = got.status == OK and self.failure is None
        finally:
            self.close()

    def close(self) -> None:
        self._shutdown()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- helpers ---------------------------------------------------------------------

    def _request(self, message: dict[str, Any], timeout_s: float, expect: str, began: float) -> MoveResult:
        try:
            got = self._exchange(message, timeout_s, reply=True)
        except BotFailure as exc:
            self._fail(exc.result)
            self._echo(exc.result.stderr_tail)
            return exc.result
        # What the bot is charged: the time that passed, less the time it waited for a CPU (the server's).
        latency_ms = max(0.0, time.monotonic() - began - got.waited_s) * 1000
        if got.status != OK or got.raw is None:
            result = MoveResult(
                None,
                got.status if got.status != OK else CRASH,
                latency_ms,
                got.stderr,
                got.error,
                answer_excerpt(got.answer),
            )
        else:
            obj, error = decode_reply(got.raw, expect)
            # The raw answer rides along even when it decodes: the rules may still find it illegal.
            answer = answer_excerpt(got.raw)
            if obj is None:
                result = MoveResult(None, "invalid", latency_ms, got.stderr, error, answer)
            else:
                result = MoveResult(obj, OK, latency_ms, got.stderr, None, answer)
        if not result.ok:
            self._fail(result)
        self._echo(result.stderr_tail)
        return result

    def _echo(self, stderr: str) -> None:
        if self.on_stderr is not None and stderr:
            self.on_stderr(stderr)

    def _fail(self, result: MoveResult) -> None:
        if self.failure is None:
            self.failure = result
        self._shutdown()
