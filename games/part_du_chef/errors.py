"""Exceptions of the rules package."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action that the rules do not allow here; the message says why."""


class RecordError(ValueError):
    """A game record that is malformed or does not replay; the message names the problem."""
