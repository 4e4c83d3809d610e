"""Bot protocol v1: messages, replies, move results and the time budget.

The same JSON objects travel as JSON Lines over a sandboxed bot's stdin/stdout
and as HTTP POST bodies to hosted bots; ``docs/bot-protocol.md`` describes
them for bot authors.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

PROTOCOL_VERSION = 1
DEFAULT_GAME = "part-du-chef"
MAX_MESSAGE_BYTES = 64 * 1024
ACTION_TYPES = ("cut", "take")
# An invalid or illegal answer is kept in the owner's log up to this many bytes: enough to see the mistake,
# never a flood of someone's stdout.
ANSWER_LOG_BYTES = 500

OK = "ok"
TIMEOUT = "timeout"
CRASH = "crash"
INVALID = "invalid"
STATUSES = (OK, TIMEOUT, CRASH, INVALID)


@dataclass(frozen=True)
class MoveResult:
    """What one request to a bot produced.

    ``action`` is the decoded reply when ``status == "ok"`` (its legality is
    for the rules to judge), ``None`` otherwise; ``error`` says what went wrong
    in words a bot author understands; ``stderr_tail`` is what the bot wrote
    to stderr meanwhile (capped); ``answer`` is the bot's raw reply (capped at
    ANSWER_LOG_BYTES) when there was one, so that the owner can see what an
    invalid or illegal answer actually said.
    """

    action: dict[str, Any] | None
    status: str
    latency_ms: float
    stderr_tail: str = ""
    error: str | None = None
    answer: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == OK

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "latency_ms": round(self.latency_ms, 3),
            "error": self.error,
            "stderr": self.stderr_tail,
        }


class BotFailure(Exception):
    """A bot failed to start (or was used after failing); ``result`` holds the details."""

    def __init__(self, result: MoveResult) -> None:
        super().__init__(f"{result.status}: {result.error}")
        self.result = result


class TimeBudget:
    """Per-move limit plus a per-match bank: time over the limit is taken from the bank."""

    def __init__(self, move_ms: int = 1000, bank_ms: int = 10000) -> None:
        if move_ms <= 0 or bank_ms < 0:
            raise ValueError("move time must be positive and the time bank not negative")
        self.move_ms = move_ms
        self.bank_ms = float(bank_ms)

    def available_ms(self) -> int:
        return int(self.move_ms + self.bank_ms)

    def charge(self, elapsed_ms: float) -> None:
        self.bank_ms = max(0.0, self.bank_ms - max(0.0, elapsed_ms - self.move_ms))


def start_message(seat: int, players: int, options: dict[str, Any], game: str = DEFAULT_GAME) -> dict[str, Any]:
    return {
        "type": "start",
        "protocol": PROTOCOL_VERSION,
        "game": game,
        "seat": seat,
        "players": players,
        "options": options,
    }


def act_message(observation: dict[str, Any], time_ms: int) -> dict[str, Any]:
    return {"type": "act", "observation": observation, "time_ms": int(time_ms)}


def end_message(scores: list[Any], ranks: list[int]) -> dict[str, Any]:
    return {"type": "end", "scores": scores, "ranks": list(ranks)}


def encode(message: dict[str, Any]) -> bytes:
    """One JSON line; the service's own messages obey the same size cap as replies."""
    data = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
    if len(data) > MAX_MESSAGE_BYTES:
        raise ValueError(f"message of {len(data)} bytes exceeds the protocol limit of {MAX_MESSAGE_BYTES}")
    return data


def decode_reply(raw: bytes, expect: str) -> tuple[dict[str, Any] | None, str | None]:
    """Parse a reply; returns (object, None) or (None, reason).  ``expect``: "ready" or "action"."""
    if len(raw) > MAX_MESSAGE_BYTES:
        return (
            None,
            f"reply of {len(raw)} bytes exceeds the limit of {MAX_MESSAGE_BYTES}",
        )
    try:
        obj = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        return None, f"reply is not valid JSON ({exc}): {_preview(raw)}"
    if not isinstance(obj, dict):
        return (
            None,
            f"reply must be a JSON object, got {type(obj).__name__}: {_preview(raw)}",
        )
    kind = obj.get("type")
    if expect == "ready":
        if kind != "ready":
            return None, f'expected {{"type": "ready"}}, got {_preview(raw)}'
        return obj, None
    if kind not in ACTION_TYPES:
        return None, f'an action must have "type" "cut" or "take", got {_preview(raw)}'
    return obj, None


def answer_excerpt(raw: bytes | None) -> str | None:
    """The bot's raw answer for the log: at most ANSWER_LOG_BYTES, with the full length when cut."""
    if raw is None:
        return None
    text = raw[:ANSWER_LOG_BYTES].decode("utf-8", errors="replace")
    if len(raw) > ANSWER_LOG_BYTES:
        text += f"... [{len(raw)} bytes in all]"
    return text


def _preview(raw: bytes, limit: int = 120) -> str:
    text = raw.decode("utf-8", errors="replace").strip()
    return text if len(text) <= limit else text[:limit] + "..."
