"""The built-in bot players, present in every database once migrated."""

from __future__ import annotations

from typing import Any

from common.skeleton import skeleton

# By strength. The noisy greedy rungs (greedy with P% random moves) fill the gap between random and
# greedy, about 550 Elo in the arena, with steps of about 100 to 150.
BUILTIN_BOTS = (
    "random",
    "noisy-greedy-65",
    "noisy-greedy-45",
    "noisy-greedy-25",
    "noisy-greedy-15",
    "greedy",
    "search-fast",
    "search",
)


def ensure_builtin_bots(player_model: Any) -> list[Any]:
    """Create the missing built-in bot players; works with the real or a migration's model.

    A migration's model has no `save` of its own, so the name's comparison key is given here when the
    model has one. A name whose key another player already holds (a look-alike, taken before the bot
    existed) is left to that player: the built-in bot is then not created, rather than stopping a
    deploy on the unique key; the house ladder goes without that rung."""
    keyed = any(field.name == "name_key" for field in player_model._meta.get_fields())
    players = []
    for name in BUILTIN_BOTS:
        player = player_model.objects.filter(name=name).first()
        if player is None:
            extra = {"name_key": skeleton(name)} if keyed else {}
            if extra and player_model.objects.filter(name_key=extra["name_key"]).exists():
                continue
            player = player_model.objects.create(name=name, kind="bot", builtin=name, **extra)
        players.append(player)
    return players
