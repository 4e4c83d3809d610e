"""Idempotency keys are kept ARENA_IDEMPOTENCY_KEEP_HOURS (at least 24 h), then purged by beat."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from idempotency.models import IdempotencyKey


def purge_expired() -> int:
    cutoff = timezone.now() - timedelta(hours=float(settings.ARENA_IDEMPOTENCY_KEEP_HOURS))
    deleted, _ = IdempotencyKey.objects.filter(created_at__lt=cutoff).delete()
    return deleted
