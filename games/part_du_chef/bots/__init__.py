"""Built-in bots, by name."""

from __future__ import annotations

from .base import Bot
from .greedy import GreedyBot
from .random_bot import RandomBot
from .search import SearchBot

BOT_NAMES = ("random", "greedy", "search")


def get_bot(name: str, seed: int = 0) -> Bot:
    """A fresh built-in bot; `seed` makes its choices reproducible."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    if name == "search":
        return SearchBot(seed)
    raise ValueError(f"unknown bot {name!r}: built-in bots are {', '.join(BOT_NAMES)}")


__all__ = ["BOT_NAMES", "Bot", "get_bot"]
