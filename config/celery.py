"""The Celery application: `celery -A config worker` consumes the arena queue, `beat` ticks."""

from __future__ import annotations

import os

from celery import Celery
from django.conf import settings
from kombu.transport import TRANSPORT_ALIASES

from config import redis_transport

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# redis:// brokers use kombu's Redis transport with one fix (see config/redis_transport.py).
TRANSPORT_ALIASES["redis"] = redis_transport.NAME

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Every app's tasks module.
app.autodiscover_tasks(lambda: settings.INSTALLED_APPS)
