"""The built-in bot players, present in every database once migrated."""

from __future__ import annotations

from typing import Any

BUILTIN_BOTS = ("random", "greedy", "search-fast", "search")


def ensure_builtin_bots(player_model: Any) -> list[Any]:
    """Create the missing built-in bot players; works with the real or a migration's model."""
    players = []
    for name in BUILTIN_BOTS:
        player, _ = player_model.objects.get_or_create(name=name, defaults={"kind": "bot", "builtin": name})
        players.append(player)
    return players
