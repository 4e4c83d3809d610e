"""Built-in bots, by name."""

from __future__ import annotations

from .base import Bot
from .greedy import GreedyBot
from .random_bot import RandomBot
from .search import SearchBot

BOT_NAMES = ("random", "greedy", "search-fast", "search")

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
    raise ValueError(f"unknown bot {name!r}: built-in bots are {', '.join(BOT_NAMES)}")


__all__ = ["BOT_NAMES", "Bot", "get_bot"]
