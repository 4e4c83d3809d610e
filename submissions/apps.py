from __future__ import annotations

from django.apps import AppConfig


class SubmissionsConfig(AppConfig):
    name = "submissions"
    verbose_name = "Submitted bots"

    def ready(self) -> None:
        # Imported here, not at the top: models can be imported only once the app registry is ready.
        from arena import seats
        from results.signals import match_committed
        from submissions import receivers
        from submissions.seats import SUBMITTED_BOT

        seats.register(SUBMITTED_BOT)
        match_committed.connect(receivers.record_bot_seats, dispatch_uid="submissions.record_bot_seats")
