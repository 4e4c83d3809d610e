"""Exceptions of the rules package."""

from __future__ import annotations


class InvalidAction(ValueError):
    """Something that is not an action at all: not an object, an unknown type, a field missing or of the
    wrong type. Said before any position is looked at (python-chess's InvalidMoveError)."""


class IllegalAction(ValueError):
    """A well-formed action that the rules do not allow in this position; the message says why
    (python-chess's IllegalMoveError)."""


class RecordError(ValueError):
    """A game record that is malformed or does not replay; the message names the problem."""
