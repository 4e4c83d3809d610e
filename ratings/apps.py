from __future__ import annotations

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        # Imported here, not at the top: models can be imported only once the app registry is ready.
        from ratings import signals  # noqa: F401  (keeps the leaderboard index in step with the ratings)
