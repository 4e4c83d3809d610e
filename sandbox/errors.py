"""Errors raised by the sandbox."""

from __future__ import annotations


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot start here; untrusted code is refused rather than run bare."""


class BundleRejected(ValueError):
    """An uploaded bot (file or zip) is refused; the message names the problem."""
