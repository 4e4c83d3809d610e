from __future__ import annotations

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        # Imported here, not at the top: models can be imported only once the app registry is ready.
        from arena.signals import match_committed, register_batch_hook
        from ratings import signals  # noqa: F401  (keeps the leaderboard index in step with the ratings)
        from ratings.ledger import rating_batch
        from ratings.receivers import rate_committed_match

        match_committed.connect(rate_committed_match, dispatch_uid="ratings.rate_committed_match")
        register_batch_hook("ratings", rating_batch)
