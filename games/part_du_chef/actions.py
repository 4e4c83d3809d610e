"""Actions: a chef's cut and a player's take, with steals and La Marianne swaps.

Actions are plain values; whether one is legal is for `State.apply` to say. Their JSON form is
the one of game records and of the bot protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from .errors import IllegalAction


@dataclass(frozen=True, slots=True)
class Swap:
    """La Marianne: the holder's kept slices `give[i]` go to the owner of `take[i]`, and back."""

    give: tuple[int, int]
    take: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        return {"give": list(self.give), "take": list(self.take)}


@dataclass(frozen=True, slots=True, order=True)
class Steal:
    """A kept double finisher takes `slice` of its sort from seat `victim`."""

    finisher: int
    victim: int
    slice: int

    def to_json(self) -> dict[str, Any]:
        return {"finisher": self.finisher, "from": self.victim, "slice": self.slice}


@dataclass(frozen=True, slots=True)
class Cut:
    cuts: tuple[int, ...]
    marianne: Swap | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "cut",
            "cuts": list(self.cuts),
            "marianne": None if self.marianne is None else self.marianne.to_json(),
        }


@dataclass(frozen=True, slots=True)
class Take:
    portion: int
    eat: tuple[int, ...] = ()
    steals: tuple[Steal, ...] = ()
    marianne: Swap | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "take",
            "portion": self.portion,
            "eat": list(self.eat),
            "steals": [s.to_json() for s in self.steals],
            "marianne": None if self.marianne is None else self.marianne.to_json(),
        }


Action: TypeAlias = Cut | Take


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(f"{what} must be an integer, not {value!r}")
    return value


def _int_list(value: object, what: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise IllegalAction(f"{what} must be a list of integers")
    return tuple(_int(v, f"each of {what}") for v in value)


def _swap_from_json(value: object) -> Swap | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise IllegalAction("marianne must be null or an object with 'give' and 'take'")
    give = _int_list(value.get("give"), "marianne.give")
    take = _int_list(value.get("take"), "marianne.take")
    if len(give) != 2 or len(take) != 2:
        raise IllegalAction("La Marianne swaps exactly two slices: give two and take two")
    return Swap((give[0], give[1]), (take[0], take[1]))


def _steal_from_json(value: object) -> Steal:
    if not isinstance(value, dict):
        raise IllegalAction("each steal must be an object with 'finisher', 'from' and 'slice'")
    return Steal(
        _int(value.get("finisher"), "steal.finisher"),
        _int(value.get("from"), "steal.from"),
        _int(value.get("slice"), "steal.slice"),
    )


def action_from_json(obj: object) -> Action:
    """Parse the JSON form of an action (as in records and the bot protocol)."""
    if not isinstance(obj, dict):
        raise IllegalAction("an action must be a JSON object")
    kind = obj.get("type")
    if kind == "cut":
        return Cut(_int_list(obj.get("cuts"), "cuts"), _swap_from_json(obj.get("marianne")))
    if kind == "take":
        steals = obj.get("steals", [])
        if not isinstance(steals, list):
            raise IllegalAction("steals must be a list")
        return Take(
            _int(obj.get("portion"), "portion"),
            _int_list(obj.get("eat", []), "eat"),
            tuple(_steal_from_json(s) for s in steals),
            _swap_from_json(obj.get("marianne")),
        )
    raise IllegalAction(f"unknown action type {kind!r}: expected 'cut' or 'take'")
