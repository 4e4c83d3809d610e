"""Built-in bots, by name."""

from __future__ import annotations

from .base import Bot
from .greedy import GreedyBot
from .noisy import NoisyGreedyBot
from .random_bot import RandomBot
from .search import SearchBot

BOT_NAMES = ("random", "greedy", "search-fast", "search")

# Greedy with P% random moves, P a whole number from 1 to 99: `noisy-greedy-10`, `noisy-greedy-20`...
NOISY_GREEDY = "noisy-greedy-"


def noisy_share(name: str) -> float | None:
    """The share of random moves a `noisy-greedy-P` name asks for, else None.

    >>> noisy_share("noisy-greedy-10"), noisy_share("noisy-greedy-100"), noisy_share("noisy-greedy-07")
    (0.1, None, None)
    """
    digits = name.removeprefix(NOISY_GREEDY)
    if digits == name or not digits.isdigit() or digits != str(int(digits)) or not 1 <= int(digits) <= 99:
        return None
    return int(digits) / 100


def is_bot_name(name: str) -> bool:
    """A built-in bot's name: one of BOT_NAMES or a noisy greedy."""
    return name in BOT_NAMES or noisy_share(name) is not None


# The second rung of search: the same search on a small budget, between greedy and search in strength.
FAST_SEARCH_PLAYOUTS = 8
FAST_SEARCH_CANDIDATES = 4


def get_bot(name: str, seed: int = 0) -> Bot:
    """A fresh built-in bot; `seed` makes its choices reproducible."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    if name == "search":
        return SearchBot(seed)
    if name == "search-fast":
        bot = SearchBot(seed, playouts=FAST_SEARCH_PLAYOUTS, cut_candidates=FAST_SEARCH_CANDIDATES)
        bot.name = "search-fast"
        return bot
    share = noisy_share(name)
    if share is not None:
        return NoisyGreedyBot(share, seed)
    raise ValueError(
        f"unknown bot {name!r}: built-in bots are {', '.join(BOT_NAMES)}, and {NOISY_GREEDY}P (P% random moves)"
    )


__all__ = ["BOT_NAMES", "NOISY_GREEDY", "Bot", "get_bot", "is_bot_name", "noisy_share"]
