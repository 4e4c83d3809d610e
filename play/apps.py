from __future__ import annotations

from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = "Play"

    def ready(self) -> None:
        # Imported here, not at the top: models can be imported only once the app registry is ready.
        from arena import seats
        from play.people import PERSON

        seats.register(PERSON)
