from __future__ import annotations

from django.apps import AppConfig
from django.core import checks

from matchmaking.checks import renamed_settings


class MatchmakingConfig(AppConfig):
    name = "matchmaking"
    verbose_name = "Matchmaking"

    def ready(self) -> None:
        checks.register(renamed_settings, checks.Tags.compatibility)
