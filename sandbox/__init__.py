"""Running untrusted bot code: bubblewrap, per-slot uids, rlimits and seccomp."""

from __future__ import annotations

from .errors import BundleRejected, SandboxBusy, SandboxUnavailable
from .process import SandboxedProcess
from .runner import RunResult, Sandbox, SandboxConfig, SandboxLimits

__all__ = [
    "BundleRejected",
    "RunResult",
    "Sandbox",
    "SandboxBusy",
    "SandboxConfig",
    "SandboxLimits",
    "SandboxUnavailable",
    "SandboxedProcess",
]
