"""Exceptions of the rules package.

An action refused by the rules carries a stable `code` and its `params`; its English message is
rendered from the code's template below. Whoever tells a refusal in other words (the pages, in every
language) translates by the code and its parameters, never by the English text, which may be reworded.
"""

from __future__ import annotations

from typing import Final, TypeAlias

Params: TypeAlias = dict[str, str | int]

# Each code's English message; a code never changes meaning, its wording may. Slices, seats and
# portions are the rules' own numbers (from 0); `pizza` counts from 1, as players do.
INVALID_ACTION: Final[dict[str, str]] = {
    "action_not_object": "an action must be a JSON object",
    "action_unknown_type": "unknown action type {type}: expected 'cut' or 'take'",
    "field_not_integer": "{field} must be an integer, not {value}",
    "field_not_integer_list": "{field} must be a list of integers",
    "steals_not_list": "steals must be a list",
    "steal_not_object": "each steal must be an object with 'finisher', 'from' and 'slice'",
    "marianne_not_object": "marianne must be null or an object with 'give' and 'take'",
    "marianne_not_two_for_two": "La Marianne swaps exactly two slices: give two and take two",
}
ILLEGAL_ACTION: Final[dict[str, str]] = {
    "game_over": "the game is over",
    "not_your_turn": "it is seat {actor}'s turn, not seat {seat}'s",
    "cut_first": "seat {actor} must cut pizza {pizza} before anyone takes",
    "already_cut": "pizza {pizza} is already cut: seat {actor} must take a portion",
    "cut_count": "a cut for {players} players has {players} cut points, not {given}",
    "cut_point_off_ring": "cut point {point} is not a position between 0 and {last}",
    "cut_points_unordered": "cut points must be distinct and listed in ascending order",
    "no_such_portion": "there is no portion {portion}: portions are 0 to {last}",
    "portion_taken": "portion {portion} is already taken by seat {taker}",
    "eat_outside_portion": "slice {slice} is not in portion {portion}",
    "eat_chili": "slice {slice} is a chili: a chili cannot be eaten",
    "eat_burnt": "slice {slice} is burnt: a burnt slice cannot be eaten",
    "eat_twice": "a slice is listed twice in eat",
    "steal_not_finisher": "slice {finisher} is not a double finisher in portion {portion}",
    "steal_finisher_eaten": "finisher {finisher} is eaten: only a kept finisher steals",
    "steal_twice": "finisher {finisher} steals only once",
    "steal_no_such_seat": "there is no seat {victim} to steal from",
    "steal_from_self": "a finisher steals from an opponent, not from its taker",
    "steal_not_kept": "seat {victim} does not keep slice {slice}",
    "steal_other_sort": "finisher {finisher} steals {sort}, and slice {slice} is {slice_sort}",
    "marianne_absent": "La Marianne is not in this game",
    "marianne_used": "La Marianne has already been used and has left the game",
    "marianne_not_held": "seat {seat} does not hold La Marianne ({holder} does)",
    "marianne_no_such_slice": "La Marianne names slice {slice}, which does not exist",
    "marianne_same_slice": "La Marianne swaps two distinct slices for two distinct slices",
    "marianne_give_not_kept": "La Marianne: slice {slice} is not among the slices seat {seat} keeps",
    "marianne_take_not_opponents": "La Marianne: slice {slice} is not kept by an opponent",
}
MESSAGES: Final[dict[str, str]] = {**INVALID_ACTION, **ILLEGAL_ACTION}


class RulesError(ValueError):
    """A refusal of the rules: a stable `code`, its `params`, the English message of the code's template."""

    def __init__(self, code: str, **params: str | int) -> None:
        super().__init__(MESSAGES[code].format(**params))
        self.code = code
        self.params: Params = params

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt from the code and parameters (the message alone would not say them).
        return (_rebuild, (type(self), self.code, self.params))


def _rebuild(cls: type[RulesError], code: str, params: Params) -> RulesError:
    return cls(code, **params)


class InvalidAction(RulesError):
    """Something that is not an action at all: not an object, an unknown type, a field missing or of the
    wrong type. Said before any position is looked at (python-chess's InvalidMoveError)."""


class IllegalAction(RulesError):
    """A well-formed action that the rules do not allow in this position; the message says why
    (python-chess's IllegalMoveError)."""


class RecordError(ValueError):
    """A game record that is malformed or does not replay; the message names the problem."""
