"""People: the human player of an account."""

from __future__ import annotations

from typing import Any

from arena.models import Player
from common.skeleton import skeleton


def person_of(user: Any) -> Player:
    """The human player of an account, created on first use under the account's username."""
    player = Player.objects.filter(owner=user, kind=Player.Kind.HUMAN).order_by("id").first()
    if player is not None:
        return player
    name = user.get_username()
    if Player.objects.filter(name_key=skeleton(name)).exists():
        name = f"{name}-{user.pk}"
    return Player.objects.create(name=name, kind=Player.Kind.HUMAN, owner=user)
