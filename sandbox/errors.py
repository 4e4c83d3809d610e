"""Errors raised by the sandbox."""

from __future__ import annotations


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot start here; untrusted code is refused rather than run bare."""


class BundleRejected(ValueError):
    """An uploaded bot (file or zip) is refused; the message names the problem."""


class SandboxBusy(SandboxUnavailable):
    """The server could not get a sandboxed process ready in time: every slot taken, or the machine too slow
    to start one within the server's own start-up limit. No fault of the bot: the work is given back
    (nobody charged, no attempt used up) and tried again later."""
