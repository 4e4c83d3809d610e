"""Built-in bots, by name."""

from __future__ import annotations

from .base import Bot
from .random_bot import RandomBot

BOT_NAMES = ("random",)


def get_bot(name: str, seed: int = 0) -> Bot:
    """A fresh built-in bot; `seed` makes its choices reproducible."""
    if name == "random":
        return RandomBot(seed)
    raise ValueError(f"unknown bot {name!r}: built-in bots are {', '.join(BOT_NAMES)}")


__all__ = ["BOT_NAMES", "Bot", "get_bot"]
