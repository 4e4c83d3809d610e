"""What reaches the leaderboard index from outside ratings.ledger: a row saved by the admin, a renamed player."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from arena.models import Player
from games.registry import all_games
from ratings.leaderboard import index
from ratings.models import Rating


@receiver(post_save, sender=Rating, dispatch_uid="ratings-index-saved-row")
def _rating_saved(sender: Any, instance: Rating, **kwargs: Any) -> None:
    index.refresh_on_commit([instance.pk])


@receiver(post_save, sender=Player, dispatch_uid="ratings-index-renamed-player")
def _player_saved(sender: Any, instance: Player, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    if created or (update_fields is not None and "name" not in update_fields):
        return
    games = [str(spec.key) for spec in all_games()]
    name = instance.name
    player_id = instance.pk
    transaction.on_commit(lambda: index.rename(player_id, name, games))
