"""Tournaments of submitted bots: the sandbox's short test limits in every test."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _sandbox_test_limits(bot_settings: Any) -> None:
    """Every test here runs with the sandbox's short test limits, on slot uids of its own."""
