"""The arena's refusals: one base class, one subclass per cause, each with its HTTP status.

Raised by the state-changing functions of every part; config/errors.py maps them to a JSON answer
naming the problem in one function (`domain_error_response`). None of them is ever a 500.
"""

from __future__ import annotations


class ArenaError(ValueError):
    """A request that cannot be carried out; the message names the problem."""

    status_code = 400


class RequestError(ArenaError):
    """Bad input: a malformed body, an unknown game, player or option, a bad seat count, a seed where none
    may be given."""


class UnplayablePlayer(RequestError):
    """This player may not sit at this kind of match (the seat-eligibility hooks say why)."""


class PlayError(RequestError):
    """A decision or table request that cannot be carried out now."""


class GameOver(PlayError):
    """The game has ended: no more decisions, no resigning."""


class NotYourChoice(ArenaError):
    """A bot's owner does not let the asker seat it (a friendly match or table)."""

    status_code = 403


class LimitReached(ArenaError):
    """The asker holds as many of something (open tables) as one account may: finish or close one first."""

    status_code = 409


class StaleTurn(ArenaError):
    """The action answers a decision that has already been taken."""

    status_code = 409


class NotSeated(ArenaError):
    """The asking player has no seat at this match (answered like a match that does not exist)."""

    status_code = 404
