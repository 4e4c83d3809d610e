from __future__ import annotations

from celery import shared_task

from idempotency.purge import purge_expired


@shared_task(name="idempotency.purge", acks_late=True)
def purge() -> int:
    return purge_expired()
