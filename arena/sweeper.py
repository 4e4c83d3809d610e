"""The sweeper: retry matches whose worker died, re-send queued matches whose message may be lost."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena.broker import waiting_messages
from arena.claims import MATCH_LEASE, dispatch_match, give_up, offer_work, queued_work, work_offered
from arena.models import Match

log = logging.getLogger(__name__)


def sweep_stuck_matches() -> dict[str, int]:
    """Retry matches whose worker died (lease expired); re-send queued ones whose message may be lost.

    A queued match is re-sent at most once per deadline, the deadline doubling with each resend.
    While the broker still holds as many waiting messages as there are queued matches, none is
    lost: the matches just wait their turn in a backlog, and nothing is re-sent. The matches a lease
    of queued work takes share one message, the offer of work (`arena.claims.offer_work`): while it
    waits in the broker they are deferred; once it is lost, work is offered again, one message for them all.
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
    leased = queued_work([match_id for match_id, _ in due]) if due else set()
    if leased:
        # A lease of queued work takes these: their message is the offer of work, one for them all.
        backlog = waiting_messages(settings.CELERY_TASK_DEFAULT_QUEUE)
        if work_offered() and backlog > 0:
            deferred += len(leased)
        else:
            for match_id, resends in due:
                if match_id in leased and MATCH_LEASE.mark_resent(match_id, resends, now):
                    resent += 1
            offer_work(renew=True)
        due = [(match_id, resends) for match_id, resends in due if match_id not in leased]
    if due:
        queued = Match.objects.filter(status=Match.Status.QUEUED).count() - len(leased)
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
