"""Talking to bots that are not built in: sandboxed processes and hosted HTTP bots, protocol v1."""

from __future__ import annotations

from .http import HttpBot, UnsafeEndpoint
from .protocol import (
    CRASH,
    INVALID,
    MAX_MESSAGE_BYTES,
    OK,
    PROTOCOL_VERSION,
    STATUSES,
    TIMEOUT,
    BotFailure,
    MoveResult,
    TimeBudget,
)
from .session import BotSession, ServerBusy
from .stdio import SandboxedBot, StdioBot

__all__ = [
    "CRASH",
    "INVALID",
    "MAX_MESSAGE_BYTES",
    "OK",
    "PROTOCOL_VERSION",
    "STATUSES",
    "TIMEOUT",
    "BotFailure",
    "BotSession",
    "HttpBot",
    "MoveResult",
    "SandboxedBot",
    "ServerBusy",
    "StdioBot",
    "TimeBudget",
    "UnsafeEndpoint",
]
