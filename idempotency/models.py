"""The answer given to one Idempotency-Key, kept so that a retry gets the same answer."""

from __future__ import annotations

from django.db import models


class IdempotencyKey(models.Model):
    # "user:<id>" for a signed-in user, "anon:<client address>" for anonymous requests (sign-up).
    scope = models.CharField(max_length=80)
    key = models.CharField(max_length=255)
    # SHA-256 of the method, the path and the body: the same key with another body is refused.
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    headers = models.JSONField(default=dict)
    body = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scope", "key"], name="idempotency_key_once_per_scope")]

    def __str__(self) -> str:
        return f"{self.scope} {self.key!r} -> {self.status}"
