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


def name_refusal(name: str, *, player_id: int | None = None, user_id: int | None = None) -> str | None:
    """Why `name` may not be taken (None when it may); `player_id`/`user_id` are the name's current holders."""
    builtin = _BUILTIN_SHAPES.get(_shape(name))
    if builtin is not None and name != builtin:
        return f"the name {name!r} is too close to the built-in bot {builtin!r}; choose another name"
    players = Player.objects.filter(name__iexact=name)
    if player_id is not None:
        players = players.exclude(pk=player_id)
    users = get_user_model().objects.filter(username__iexact=name)
    if user_id is not None:
        users = users.exclude(pk=user_id)
    if builtin is not None or players.exists() or users.exists():
        return f"the name {name!r} is taken (names are compared without regard to case); choose another name"
    return None
