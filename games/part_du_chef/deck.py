"""The 65 slices of La Part du Chef and the deal of five pizzas from a seed.

Slice ids are fixed (the canonical deck below), so a game record names slices by id and
anyone can check a record's pizzas against the deck.
"""

from __future__ import annotations

import _random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

PIZZAS: Final = 5
RING: Final = 13

# Kinds are small ints so that counting tables stay plain lists.
MARGHERITA: Final = 0
REINE: Final = 1
QUATRE_FROMAGES: Final = 2
VEGETARIENNE: Final = 3
TRUFFE: Final = 4
CHILI: Final = 5
BURNT: Final = 6

SORTS: Final = (MARGHERITA, REINE, QUATRE_FROMAGES, VEGETARIENNE, TRUFFE)
KIND_NAMES: Final = ("margherita", "reine", "quatre_fromages", "vegetarienne", "truffe", "chili", "burnt")
KIND_BY_NAME: Final = {name: kind for kind, name in enumerate(KIND_NAMES)}
MAJORITY_VALUE: Final = (3, 5, 7, 9, 11)
VARIETY_MULTIPLIER: Final = len(SORTS)
BURNT_PENALTY: Final = -3

# The pizzas keep their French names in every language, as on the original cards.
DISPLAY_NAMES: Final = {
    "fr": ("Margherita", "Reine", "4 Fromages", "Végétarienne", "Truffe", "Piment", "Part brûlée"),
    "no": ("Margherita", "Reine", "4 Fromages", "Végétarienne", "Truffe", "Chili", "Brent stykke"),
    "en": ("Margherita", "Reine", "4 Fromages", "Végétarienne", "Truffe", "Chili", "Burnt slice"),
}


@dataclass(frozen=True, slots=True)
class Slice:
    id: int
    kind: int
    olives: int
    finisher: bool

    @property
    def sort(self) -> str:
        return KIND_NAMES[self.kind]

    @property
    def edible(self) -> bool:
        return self.kind < CHILI

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "sort": KIND_NAMES[self.kind], "olives": self.olives, "finisher": self.finisher}


def _build_deck() -> tuple[Slice, ...]:
    # (kind, olives, count); the first slice of each sort is its double finisher.
    layout = (
        (MARGHERITA, 2, 8),
        (MARGHERITA, 3, 8),
        (REINE, 2, 14),
        (QUATRE_FROMAGES, 1, 6),
        (QUATRE_FROMAGES, 2, 5),
        (VEGETARIENNE, 1, 9),
        (TRUFFE, 1, 7),
        (CHILI, 0, 3),
        (BURNT, 0, 5),
    )
    slices: list[Slice] = []
    seen_sorts: set[int] = set()
    for kind, olives, count in layout:
        for _ in range(count):
            finisher = kind in SORTS and kind not in seen_sorts
            seen_sorts.add(kind)
            slices.append(Slice(len(slices), kind, olives, finisher))
    return tuple(slices)


DECK: Final = _build_deck()
DECK_SIZE: Final = len(DECK)
KIND_OF: Final = tuple(s.kind for s in DECK)
OLIVES_OF: Final = tuple(s.olives for s in DECK)
IS_FINISHER: Final = tuple(s.finisher for s in DECK)
BURNT_IDS: Final = tuple(s.id for s in DECK if s.kind == BURNT)
CHILI_IDS: Final = tuple(s.id for s in DECK if s.kind == CHILI)
NON_BURNT_IDS: Final = tuple(s.id for s in DECK if s.kind != BURNT)
KIND_TOTALS: Final = tuple(sum(1 for s in DECK if s.kind == k) for k in range(len(KIND_NAMES)))

assert DECK_SIZE == PIZZAS * RING


def _shuffle(items: list[int], uniform: Callable[[], float]) -> None:
    """Fisher-Yates from the last position down, j = floor(uniform() * (i + 1)).

    Spelled out (rather than random.shuffle) so that any language with an MT19937 53-bit
    `random()` can deal the same pizzas from a seed.
    """
    for i in range(len(items) - 1, 0, -1):
        j = int(uniform() * (i + 1))
        items[i], items[j] = items[j], items[i]


def deal(seed: int) -> tuple[tuple[int, ...], ...]:
    """The five pizzas of a seed, each a ring of 13 slice ids.

    The sixty slices that are not burnt are shuffled once; pizza p gets the twelve at positions
    12p..12p+11 and burnt slice BURNT_IDS[p], and its ring of thirteen is shuffled on its own.
    """
    # random.Random(seed) without its Python-level __init__ and seed(): for an integer seed both
    # come down to this C seeding, so the draws are the same (tests/games/test_deck.py holds them
    # to random.Random's), at half the cost of making the generator.
    uniform = _random.Random(seed).random
    others = list(NON_BURNT_IDS)
    _shuffle(others, uniform)
    pizzas = []
    for p in range(PIZZAS):
        ring = others[12 * p : 12 * p + 12]
        ring.append(BURNT_IDS[p])
        _shuffle(ring, uniform)
        pizzas.append(tuple(ring))
    return tuple(pizzas)
