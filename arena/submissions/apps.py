from __future__ import annotations

from django.apps import AppConfig


class SubmissionsConfig(AppConfig):
    name = "arena.submissions"
    label = "submissions"
    verbose_name = "Submitted bots"

    def ready(self) -> None:
        from arena.signals import match_committed
        from arena.submissions import receivers

        match_committed.connect(receivers.record_bot_seats, dispatch_uid="submissions.record_bot_seats")
