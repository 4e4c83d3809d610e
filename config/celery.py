"""The Celery application: `celery -A config worker` consumes the arena queue, `beat` ticks."""

from __future__ import annotations

import os

from celery import Celery
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Every app's tasks module.
app.autodiscover_tasks(lambda: settings.INSTALLED_APPS)
