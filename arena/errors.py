"""The arena's refusals: one base class, one subclass per cause, each with its HTTP status.

Raised by the state-changing functions of every part; config/errors.py maps them to a JSON answer
naming the problem in one function (`domain_error_response`). None of them is ever a 500.

Each carries a stable `code` and its `params` beside the English message, as the rules' errors do
(games.part_du_chef.errors): the pages translate a refusal by its code, API clients may branch on it.
A refusal raised with `coded` has its message rendered from its code's template below; any other
carries its class's code and no parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Self

Params = dict[str, str | int]

# The English message of each code raised with `coded`; a code never changes meaning, its wording may.
MESSAGES: dict[str, str] = {
    "not_seated": "you have no seat at match {match}",
    "not_a_table": "match {match} is not a game played at a table",
    "game_over": "the game is over",
    "turn_not_integer": "turn must be the integer turn number of the decision you answer",
    "turn_played": "turn {turn} has already been played; the game is at turn {now}",
    "turn_not_come": "turn {turn} has not come yet; the game is at turn {now}",
    "seat_left": "you have left this game; the house plays your seat",
    "not_committed": "match {match} could not be committed",
    "seated_twice": "player {player} is seated twice",
    "unknown_player": "unknown player {player}",
}


class ArenaError(ValueError):
    """A request that cannot be carried out; the message names the problem."""

    status_code = 400
    default_code = "invalid"

    def __init__(self, message: str, *, code: str | None = None, params: Mapping[str, str | int] | None = None) -> None:
        super().__init__(message)
        self.code = code or self.default_code
        self.params: Params = dict(params or {})

    @classmethod
    def coded(cls, code: str, **params: str | int) -> Self:
        """The refusal of this code, its message rendered from the code's template."""
        return cls(MESSAGES[code].format(**params), code=code, params=params)


class RequestError(ArenaError):
    """Bad input: a malformed body, an unknown game, player or option, a bad seat count, a seed where none
    may be given."""

    default_code = "bad_request"


class UnplayablePlayer(RequestError):
    """This player may not sit at this kind of match (the seat-eligibility hooks say why)."""

    default_code = "unplayable_player"


class PlayError(RequestError):
    """A decision or table request that cannot be carried out now."""

    default_code = "play_refused"


class GameOver(PlayError):
    """The game has ended: no more decisions, no resigning."""

    default_code = "game_over"


class NotYourChoice(ArenaError):
    """A bot's owner does not let the asker seat it (a friendly match or table)."""

    status_code = 403
    default_code = "not_your_choice"


class LimitReached(ArenaError):
    """The asker holds as many of something (open tables) as one account may: finish or close one first."""

    status_code = 409
    default_code = "limit_reached"


class StaleTurn(ArenaError):
    """The action answers a decision that has already been taken."""

    status_code = 409
    default_code = "turn_played"


class NotSeated(ArenaError):
    """The asking player has no seat at this match (answered like a match that does not exist)."""

    status_code = 404
    default_code = "not_seated"
