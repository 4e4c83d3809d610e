from __future__ import annotations

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        # Connects the receivers that keep the leaderboard index in step with the ratings.
        from ratings import signals  # noqa: F401
