"""The sweeper: retry matches whose worker died, re-send queued matches whose message may be lost."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena.broker import waiting_messages
from arena.claims import MATCH_LEASE, dispatch_match, give_up
from arena.models import Match

log = logging.getLogger(__name__)


def sweep_stuck_matches() -> dict[str, int]:
    """Retry matches whose worker died (lease expired); re-send queued ones whose message may be lost.

    A queued match is re-sent at most once per deadline, the deadline doubling with each resend.
    While the broker still holds as many waiting messages as there are queued matches, none is
    lost: the matches just wait their turn in a backlog, and nothing is re-sent.
    """
    now = timezone.now()
    retried = failed = resent = deferred = 0
    for match_id, attempt in MATCH_LEASE.expired(now):
        if attempt >= settings.ARENA_MATCH_MAX_ATTEMPTS:
            if give_up(match_id, attempt, "the last attempt did not finish before its lease expired"):
                failed += 1
            continue
        reason = f"attempt {attempt}: the worker stopped before its lease expired"
        with transaction.atomic():
            if MATCH_LEASE.requeue(match_id, attempt, reason, only_expired=True):
                dispatch_match(match_id)
                retried += 1
    due = MATCH_LEASE.due_for_resend(now)
    if due:
        queued = Match.objects.filter(status=Match.Status.QUEUED).count()
        backlog = waiting_messages(settings.CELERY_TASK_DEFAULT_QUEUE)
        # At most this many queued matches can be without a message in the broker.
        missing = max(0, queued - backlog)
        for index, (match_id, resends) in enumerate(due):
            if index >= missing:
                deferred += 1
                continue
            with transaction.atomic():
                if MATCH_LEASE.mark_resent(match_id, resends, now):
                    dispatch_match(match_id)
                    resent += 1
    counts = {"retried": retried, "failed": failed, "resent": resent, "deferred": deferred}
    if any(counts.values()):
        log.info("match sweep: %s", ", ".join(f"{key} {value}" for key, value in counts.items()))
    return counts
