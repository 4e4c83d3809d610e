"""Player and account names: one name per skeleton, never a look-alike of a built-in bot, and never a
house copy's name (`greedy-2`).

Names are stored as typed and compared on their skeleton (common.skeleton: NFKC, case folded,
confusable characters mapped), so `ＡＬＩＣＥ` and `a1ice` are `alice`, and Cyrillic `grееdy` is `greedy`.
"""

from __future__ import annotations

import re
import unicodedata

from django.contrib.auth import get_user_model

from arena.builtin import BUILTIN_BOTS
from arena.models import Player
from common.skeleton import skeleton

# Nor do these separators make a name different to a reader: "g.r-e_edy" reads "greedy".
_IGNORED = re.compile(r"[_.\-]")
# A house copy of a built-in bot is its name, a separator or none, and a number: `greedy-2`, `search-fast3`.
_NUMBERED = re.compile(r"^(?P<base>.*?)[_.\-]*(?P<number>[0-9]+)$")


def _shape(name: str) -> str:
    return _IGNORED.sub("", skeleton(name))


_BUILTIN_SHAPES = {_shape(name): name for name in BUILTIN_BOTS}


def lookalike_refusal(name: str) -> str | None:
    """Why `name` reads as a built-in bot's name (or a house copy's) without being it; None when it does not."""
    builtin = _BUILTIN_SHAPES.get(_shape(name))
    if builtin is not None and name != builtin:
        return f"the name {name!r} is too close to the built-in bot {builtin!r}; choose another name"
    numbered = _NUMBERED.match(unicodedata.normalize("NFKC", name.strip()))
    if numbered is not None:
        builtin = _BUILTIN_SHAPES.get(_shape(numbered["base"]))
        if builtin is not None:
            return (
                f"the name {name!r} is reserved: a built-in bot's name with a number ({builtin!r}-2, ...) "
                "names the house's copies of that bot; choose another name"
            )
    return None


def name_taken(name: str, *, player_id: int | None = None) -> bool:
    """A player or an account already has this name or a look-alike of it (`player_id`: its current holder)."""
    players = Player.objects.filter(name_key=skeleton(name))
    if player_id is not None:
        players = players.exclude(pk=player_id)
    if players.exists():
        return True
    # Accounts made without a player (the admin's `createsuperuser`): compared as Django stores them.
    typed = unicodedata.normalize("NFKC", name.strip())
    return get_user_model().objects.filter(username__iexact=typed).exists()


def name_refusal(name: str, *, player_id: int | None = None) -> str | None:
    """Why `name` may not be taken by a new or renamed player; None when it may."""
    lookalike = lookalike_refusal(name)
    if lookalike is not None:
        return lookalike
    if name_taken(name, player_id=player_id):
        return (
            f"a player named {name!r} or a look-alike of it already exists (names are compared without "
            "regard to case, width or look-alike letters); choose another name"
        )
    return None
