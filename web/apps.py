from __future__ import annotations

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Web front"

    def ready(self) -> None:
        # Connects the receivers that publish live updates when play state is saved.
        from web import live  # noqa: F401
