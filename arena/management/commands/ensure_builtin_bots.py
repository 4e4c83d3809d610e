from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from arena.builtin import ensure_builtin_bots
from arena.models import Player


class Command(BaseCommand):
    help = "Create the built-in bot players (arena.builtin.BUILTIN_BOTS, the house ladder) if they are missing."

    def handle(self, *args: Any, **options: Any) -> None:
        players = ensure_builtin_bots(Player)
        self.stdout.write("built-in bots: " + ", ".join(f"{p.name} (#{p.id})" for p in players))
