"""Actions: a chef's cut and a player's take, with steals and La Marianne swaps.

Actions are plain values; whether one is legal is for `State.apply` to say. Their JSON form is
the one of game records and of the bot protocol.
"""

from __future__ import annotations

from typing import Any, Final, TypeAlias

from .errors import InvalidAction

# Actions are immutable values, written as plain classes with final attributes rather than frozen
# dataclasses: a frozen dataclass pays for its immutability on every construction, and playouts and
# bots build an action per decision. mypy refuses any assignment to them, and so does the compiled
# build at run time.


class Swap:
    """La Marianne: the holder's kept slices `give[i]` go to the owner of `take[i]`, and back."""

    __slots__ = ("give", "take")

    def __init__(self, give: tuple[int, int], take: tuple[int, int]) -> None:
        self.give: Final = give
        self.take: Final = take

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Swap) and self.give == other.give and self.take == other.take

    def __hash__(self) -> int:
        return hash((self.give, self.take))

    def __repr__(self) -> str:
        return f"Swap(give={self.give!r}, take={self.take!r})"

    def to_json(self) -> dict[str, Any]:
        return {"give": list(self.give), "take": list(self.take)}


class Steal:
    """A kept double finisher takes `slice` of its sort from seat `victim`. Steals order by their fields."""

    __slots__ = ("finisher", "victim", "slice")

    def __init__(self, finisher: int, victim: int, slice: int) -> None:
        self.finisher: Final = finisher
        self.victim: Final = victim
        self.slice: Final = slice

    def _key(self) -> tuple[int, int, int]:
        return (self.finisher, self.victim, self.slice)

    def _other_key(self, other: object) -> tuple[int, int, int]:
        if not isinstance(other, Steal):
            raise TypeError(f"a steal cannot be compared with {type(other).__name__}")
        return other._key()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Steal) and self._key() == other._key()

    def __lt__(self, other: object) -> bool:
        return self._key() < self._other_key(other)

    def __le__(self, other: object) -> bool:
        return self._key() <= self._other_key(other)

    def __gt__(self, other: object) -> bool:
        return self._key() > self._other_key(other)

    def __ge__(self, other: object) -> bool:
        return self._key() >= self._other_key(other)

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Steal(finisher={self.finisher!r}, victim={self.victim!r}, slice={self.slice!r})"

    def to_json(self) -> dict[str, Any]:
        return {"finisher": self.finisher, "from": self.victim, "slice": self.slice}


class Cut:
    __slots__ = ("cuts", "marianne")

    def __init__(self, cuts: tuple[int, ...], marianne: Swap | None = None) -> None:
        self.cuts: Final = cuts
        self.marianne: Final = marianne

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cut) and self.cuts == other.cuts and self.marianne == other.marianne

    def __hash__(self) -> int:
        return hash((self.cuts, self.marianne))

    def __repr__(self) -> str:
        return f"Cut(cuts={self.cuts!r}, marianne={self.marianne!r})"

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "cut",
            "cuts": list(self.cuts),
            "marianne": None if self.marianne is None else self.marianne.to_json(),
        }


class Take:
    __slots__ = ("portion", "eat", "steals", "marianne")

    def __init__(
        self, portion: int, eat: tuple[int, ...] = (), steals: tuple[Steal, ...] = (), marianne: Swap | None = None
    ) -> None:
        self.portion: Final = portion
        self.eat: Final = eat
        self.steals: Final = steals
        self.marianne: Final = marianne

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Take)
            and self.portion == other.portion
            and self.eat == other.eat
            and self.steals == other.steals
            and self.marianne == other.marianne
        )

    def __hash__(self) -> int:
        return hash((self.portion, self.eat, self.steals, self.marianne))

    def __repr__(self) -> str:
        return f"Take(portion={self.portion!r}, eat={self.eat!r}, steals={self.steals!r}, marianne={self.marianne!r})"

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
        raise InvalidAction("field_not_integer", field=what, value=repr(value))
    return value


def _int_list(value: object, what: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise InvalidAction("field_not_integer_list", field=what)
    return tuple(_int(v, f"each of {what}") for v in value)


def _swap_from_json(value: object) -> Swap | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise InvalidAction("marianne_not_object")
    give = _int_list(value.get("give"), "marianne.give")
    take = _int_list(value.get("take"), "marianne.take")
    if len(give) != 2 or len(take) != 2:
        raise InvalidAction("marianne_not_two_for_two")
    return Swap((give[0], give[1]), (take[0], take[1]))


def _steal_from_json(value: object) -> Steal:
    if not isinstance(value, dict):
        raise InvalidAction("steal_not_object")
    return Steal(
        _int(value.get("finisher"), "steal.finisher"),
        _int(value.get("from"), "steal.from"),
        _int(value.get("slice"), "steal.slice"),
    )


def action_from_json(obj: object) -> Action:
    """Parse the JSON form of an action (as in records and the bot protocol); InvalidAction names what
    is malformed. Whether the action is legal is for `State.apply` to say (IllegalAction)."""
    if not isinstance(obj, dict):
        raise InvalidAction("action_not_object")
    kind = obj.get("type")
    if kind == "cut":
        return Cut(_int_list(obj.get("cuts"), "cuts"), _swap_from_json(obj.get("marianne")))
    if kind == "take":
        steals = obj.get("steals", [])
        if not isinstance(steals, list):
            raise InvalidAction("steals_not_list")
        return Take(
            _int(obj.get("portion"), "portion"),
            _int_list(obj.get("eat", []), "eat"),
            tuple(_steal_from_json(s) for s in steals),
            _swap_from_json(obj.get("marianne")),
        )
    raise InvalidAction("action_unknown_type", type=repr(kind))
