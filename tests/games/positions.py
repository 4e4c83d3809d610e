"""Hand-built positions: choose the first pizzas slice by slice, the rest of the deck follows in id order."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.part_du_chef import Cut, State, Steal, Swap, Take
from games.part_du_chef.deck import DECK_SIZE, PIZZAS, RING

# Slice ids of the canonical deck (see docs/record-format.md).
MARGHERITA_FINISHER, MARGHERITA_2, MARGHERITA_3 = 0, (1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)
REINE_FINISHER, REINE = 16, tuple(range(17, 30))
FROMAGES_FINISHER, FROMAGES_1, FROMAGES_2 = 30, (31, 32, 33, 34, 35), (36, 37, 38, 39, 40)
VEGETARIENNE_FINISHER, VEGETARIENNE = 41, tuple(range(42, 50))
TRUFFE_FINISHER, TRUFFE = 50, tuple(range(51, 57))
CHILIS = (57, 58, 59)
BURNTS = (60, 61, 62, 63, 64)


def position(
    players: int,
    rings: Sequence[Sequence[int]],
    *,
    marianne: bool = False,
    marianne_seats: Iterable[int] | None = None,
) -> State:
    """A new game whose first pizzas are `rings` (13 ids each); later pizzas take the unused ids in order."""
    used = [sid for ring in rings for sid in ring]
    assert all(len(ring) == RING for ring in rings), "each hand-built ring has 13 slices"
    assert len(set(used)) == len(used), "a slice appears twice in the hand-built rings"
    rest = [sid for sid in range(DECK_SIZE) if sid not in set(used)]
    pizzas = [tuple(ring) for ring in rings]
    while len(pizzas) < PIZZAS:
        pizzas.append(tuple(rest[:RING]))
        rest = rest[RING:]
    return State.new(players, 0, marianne=marianne, marianne_seats=marianne_seats, pizzas=tuple(pizzas))


def cut(state: State, *points: int, swap: Swap | None = None) -> None:
    state.apply(Cut(tuple(points), swap))


def take(
    state: State,
    portion: int,
    eat: Iterable[int] = (),
    steals: Iterable[tuple[int, int, int]] = (),
    swap: Swap | None = None,
) -> None:
    state.apply(Take(portion, tuple(eat), tuple(Steal(*s) for s in steals), swap))
