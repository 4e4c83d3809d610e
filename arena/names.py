"""Player and account names: unique whatever the case, and never a look-alike of a built-in bot."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model

from arena.builtin import BUILTIN_BOTS
from arena.models import Player

# Case and these separators do not make a name different to a reader: "Greedy", "g.r-e_edy".
_IGNORED = re.compile(r"[_.\-]")


def _shape(name: str) -> str:
    return _IGNORED.sub("", name).casefold()


_BUILTIN_SHAPES = {_shape(name): name for name in BUILTIN_BOTS}


def lookalike_refusal(name: str) -> str | None:
    """Why `name` reads as a built-in bot's name without being it; None when it does not."""
    builtin = _BUILTIN_SHAPES.get(_shape(name))
    if builtin is not None and name != builtin:
        return f"the name {name!r} is too close to the built-in bot {builtin!r}; choose another name"
    return None


def name_taken(name: str, *, player_id: int | None = None) -> bool:
    """A player or an account already has this name, whatever the case (`player_id`: its current holder)."""
    players = Player.objects.filter(name__iexact=name)
    if player_id is not None:
        players = players.exclude(pk=player_id)
    return players.exists() or get_user_model().objects.filter(username__iexact=name).exists()


def name_refusal(name: str, *, player_id: int | None = None) -> str | None:
    """Why `name` may not be taken by a new or renamed player; None when it may."""
    lookalike = lookalike_refusal(name)
    if lookalike is not None:
        return lookalike
    if name_taken(name, player_id=player_id):
        return (
            f"a player named {name!r} already exists (names are compared without regard to case); "
            "choose another name"
        )
    return None
