"""Seeds of the deals the service draws.

53 bits: far too many deals to tabulate them by their first pizza (a player who could would know the
four pizzas to come), and every seed is exact as a JSON number in any language, since records carry it.
"""

from __future__ import annotations

import secrets

MAX_SEED = 2**53 - 1


def draw_seed() -> int:
    return secrets.randbelow(MAX_SEED + 1)
