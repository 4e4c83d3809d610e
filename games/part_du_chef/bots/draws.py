"""Draws keyed by a decision: a small generator that any key starts afresh at no cost.

The built-in bots that draw at random give each decision of a game the draws of its own key (the
bot's seed and the decision's number), so that two games of a duplicate deal meet the same draws at
the same decision even after they diverged (common random numbers: bots.random_bot). `random.Random`
would serve, but seeding it fills a 624-word state, about 4 µs: twice a whole game of random bots,
whose decisions cost less than that. This is SplitMix64 (Steele, Lea and Flood, OOPSLA 2014, the
seeder of Java's SplittableRandom and of xoshiro): a 64-bit counter stepped by the golden ratio and
mixed, whose outputs for neighbouring keys are independent, so a new key is one assignment.

Only `random()` and `getrandbits()` are its own; everything else (`sample`, `choice`, `randrange`...)
is `random.Random`'s, built on those two.

>>> draws = KeyedDraws(7)
>>> first = [draws.random() for _ in range(3)]
>>> draws.key(7)
>>> [draws.random() for _ in range(3)] == first
True
>>> all(0.0 <= KeyedDraws(key).random() < 1.0 for key in range(1000))
True
>>> KeyedDraws(1).getrandbits(70) < 1 << 70
True
"""

from __future__ import annotations

import random
from typing import Any

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_TO_UNIT = 1.0 / (1 << 53)


class KeyedDraws(random.Random):
    def __init__(self, key: int = 0) -> None:
        super().__init__(key)

    def seed(self, a: Any = None, version: int = 2) -> None:  # called by random.Random.__init__
        self.key(a if isinstance(a, int) else 0)

    def key(self, key: int) -> None:
        """Start the draws of `key` afresh."""
        self._state = key & _MASK
        self.gauss_next = None

    def _next(self) -> int:
        self._state = state = (self._state + _GOLDEN) & _MASK
        mixed = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        mixed = ((mixed ^ (mixed >> 27)) * 0x94D049BB133111EB) & _MASK
        return mixed ^ (mixed >> 31)

    def random(self) -> float:
        return (self._next() >> 11) * _TO_UNIT

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        bits = 0
        for shift in range(0, k, 64):
            bits |= self._next() << shift
        return bits & ((1 << k) - 1)

    def getstate(self) -> Any:
        return self._state

    def setstate(self, state: Any) -> None:
        self._state = state
