"""A comparison's deals played apart, spread over the workers, its progress and verdict as they come in.

The comparison's task (`run_compare`) claims it and makes its first `ARENA_COMPARE_PARALLEL_DEALS`
deal rows, each sent as a task of its own (`play_deal`). One deal is one task: all of its games
(both versions in every seat) side by side in lockstep (comparing.play_deal_in_lockstep), so no
table of a deal ever runs apart from the others. A deal that comes in is stored on its row and, in
the same transaction with the comparison's row locked (`record_deal`):

* the progress is written (deals done, their games, the running score difference and its interval);
* the sequential rule (games.part_du_chef.comparison.settle) looks at the deals done in order from
  the first: the verdict is exactly the single-task comparison's over the same seeds. A deal that
  comes in while an earlier one still plays waits for it before it counts;
* settled (or every deal asked for done), the comparison is finished and its queued deals are
  cancelled; otherwise the next deal is made and sent, so no more than the window is ever in flight
  and nothing more is sent once the verdict is settled. Deals still playing then finish and keep
  their result on their row, but are counted neither in the progress nor in the verdict.

Deal rows are claimed as matches are (arena.leases): a conditional UPDATE bumping `attempt`, the
fencing token, with a lease; a re-delivered task finds the deal taken or finished and does nothing,
and only the attempt holding the deal stores its result, so no deal counts twice. A deal the server was
too slow to start (a version's sandbox past ARENA_SANDBOX_START_MS: botclient.ServerBusy) is given back
with its attempt and sent again a little later, nobody charged. A deal whose play raised is retried
(re-queued and sent again) up to DEAL_MAX_ATTEMPTS; a worker that died lets its deal's lease run out
and the sweep sends it again. After the last attempt the deal is failed with its reason, and so is
the comparison, saying which deal and why (the deals done keep their progress).
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena.dispatch import send_on_commit
from arena.leases import Lease
from botclient import ServerBusy
from common.outages import retrying
from common.task_names import TaskName
from games.part_du_chef.comparison import DealScores, Stopping, score_deal, settle, summarize
from games.part_du_chef.simulation import Estimate
from submissions.comparing import (
    ArenaSessions,
    deal_lineups,
    estimate_json,
    play_deal_in_lockstep,
    result_json,
    version_label,
)
from submissions.models import BotComparison, ComparisonDeal

log = logging.getLogger(__name__)

# A comparison still running this long after it started is failed (its deals' own leases came first).
COMPARE_TIME_LIMIT_SECONDS = 3600.0
# One deal's task: every game of the deal side by side. Its lease outlasts the task's hard limit, so a
# deal is taken over only once its worker is surely gone.
DEAL_TIME_LIMIT_SECONDS = 900.0
DEAL_MAX_ATTEMPTS = 3
OUTAGE_RETRY_SECONDS = 60.0
# A deal given back because the server was too slow to start a version's sandbox is sent again this much later.
BUSY_RETRY_SECONDS = 2.0

DEAL_LEASE = Lease(
    model=ComparisonDeal,
    queued=ComparisonDeal.Status.QUEUED,
    running=ComparisonDeal.Status.RUNNING,
    lease_seconds=lambda: DEAL_TIME_LIMIT_SECONDS + 60,
    max_attempts=lambda: DEAL_MAX_ATTEMPTS,
    started_field="started_at",
    error_field="error",
)


def stopping_of(comparison: BotComparison) -> Stopping | None:
    """The sequential rule over the deals asked for; none where every deal is to be played."""
    return None if comparison.fixed else Stopping(max_deals=comparison.deals)


# -- starting -------------------------------------------------------------------------------------


def claim(comparison_id: int) -> bool:
    """queued -> running, once: a re-delivered or repeated task finds nothing to claim."""
    return bool(
        BotComparison.objects.filter(pk=comparison_id, status=BotComparison.Status.QUEUED).update(
            status=BotComparison.Status.RUNNING, started_at=timezone.now()
        )
    )


def _send_deal(comparison: BotComparison, number: int) -> None:
    """The deal's row (queued) and its task, sent on commit; a lost message is sent again by the sweep."""
    deal = ComparisonDeal.objects.create(
        comparison=comparison,
        number=number,
        seed=comparison.seed + number,
        lease_expires_at=DEAL_LEASE.resend_deadline(),
    )
    send_on_commit(TaskName.PLAY_COMPARISON_DEAL, (deal.pk,))


def run_compare(comparison_id: int) -> str:
    """Claim the comparison and send its first deals (the window). Safe to call any number of times."""
    with transaction.atomic():
        if not claim(comparison_id):
            return "not claimed"
        comparison = BotComparison.objects.select_for_update().get(pk=comparison_id)
        window = min(comparison.deals, int(settings.ARENA_COMPARE_PARALLEL_DEALS))
        for number in range(window):
            _send_deal(comparison, number)
        comparison.deals_sent = window
        comparison.save(update_fields=["deals_sent"])
    return "started"


# -- playing one deal -----------------------------------------------------------------------------


def play_deal(deal_id: int) -> str:
    """Claim the deal, play its games side by side, record it. Safe to call any number of times."""
    attempt, exhausted = DEAL_LEASE.claim(deal_id)
    if exhausted is not None:
        deal = ComparisonDeal.objects.get(pk=deal_id)
        reason = f"did not finish after {exhausted} attempts" + (f"; the last: {deal.error}" if deal.error else "")
        fail_deal(deal_id, exhausted, reason)
        return "failed"
    if attempt is None:
        return "not claimed"
    deal = ComparisonDeal.objects.select_related(
        "comparison__version__bot__player", "comparison__against__bot__player"
    ).get(pk=deal_id)
    comparison = deal.comparison
    if comparison.status != BotComparison.Status.RUNNING:
        # Settled or failed meanwhile: the deal is not needed.
        ComparisonDeal.objects.filter(pk=deal_id, status=ComparisonDeal.Status.RUNNING, attempt=attempt).update(
            status=ComparisonDeal.Status.CANCELLED, lease_expires_at=None, finished_at=timezone.now()
        )
        return "cancelled"
    tables = deal_lineups(comparison, ArenaSessions())
    try:
        games = play_deal_in_lockstep(tables, deal.seed, comparison.marianne)
    except ServerBusy as exc:
        # The server's slowness, not a version's: the whole deal is given back with its attempt and played
        # again a little later, so neither version is charged a forfeit for it.
        log.warning("comparison %s deal %s given back, the server is busy: %s", comparison.pk, deal.number, exc)
        with transaction.atomic():
            for again in DEAL_LEASE.unclaim([(deal_id, attempt)], resend={deal_id}):
                eta = timezone.now() + timedelta(seconds=BUSY_RETRY_SECONDS)
                send_on_commit(TaskName.PLAY_COMPARISON_DEAL, (again,), eta=eta)
        return "server busy"
    except Exception as exc:  # noqa: BLE001 - any failure is the deal's: retried, then shown to the owner
        log.warning("comparison %s deal %s failed (attempt %s)", comparison.pk, deal.number, attempt, exc_info=True)
        error = f"{type(exc).__name__}: {exc}"
        if attempt < DEAL_MAX_ATTEMPTS:
            with transaction.atomic():
                if DEAL_LEASE.requeue(deal_id, attempt, error):
                    send_on_commit(TaskName.PLAY_COMPARISON_DEAL, (deal_id,))
            return "retried"
        fail_deal(deal_id, attempt, f"failed {attempt} times; the last: {error}")
        return "failed"
    scores = score_deal(games, len(comparison.opponents) + 1, deal.seed)
    # A database or broker outage does not lose a deal played: the transaction is tried again (fenced, so
    # a first try that did commit makes the next one find its deal recorded).
    until = time.monotonic() + OUTAGE_RETRY_SECONDS
    return retrying(lambda: record_deal(deal_id, attempt, scores), until=until, what=f"recording deal {deal_id}")


def record_deal(deal_id: int, attempt: int, scores: DealScores) -> str:
    """Store the deal's result (once: fenced by its attempt) and move the comparison on, in one transaction."""
    with transaction.atomic():
        comparison_id = ComparisonDeal.objects.values_list("comparison_id", flat=True).get(pk=deal_id)
        # Lock order: the comparison's row first, then its deals' (every transaction touching both). Its
        # row only: the versions, bots and players read with it are not locked.
        comparison = (
            BotComparison.objects.select_for_update(of=("self",))
            .select_related("version__bot__player", "against__bot__player")
            .get(pk=comparison_id)
        )
        held = ComparisonDeal.objects.filter(pk=deal_id, status=ComparisonDeal.Status.RUNNING, attempt=attempt)
        stored = held.update(
            status=ComparisonDeal.Status.FINISHED,
            result=scores.to_json(),
            finished_at=timezone.now(),
            lease_expires_at=None,
            error="",
        )
        if not stored:
            return "stale"  # taken over by another attempt, or already recorded: nothing counts twice
        if comparison.status != BotComparison.Status.RUNNING:
            return "not counted"  # came in after the verdict (or the comparison's failure)
        _advance(comparison)
    return "recorded"


def _advance(comparison: BotComparison) -> None:
    """Progress, then the verdict or the next deal; the comparison's row is locked by the caller."""
    done: dict[int, DealScores] = {}
    finished = ComparisonDeal.objects.filter(comparison=comparison, status=ComparisonDeal.Status.FINISHED)
    for number, result in finished.values_list("number", "result"):
        assert result is not None  # a finished deal is stored with its result
        done[number] = DealScores.from_json(result)
    in_order: list[DealScores] = []
    while len(in_order) in done:
        in_order.append(done[len(in_order)])
    players = len(comparison.opponents) + 1
    comparison.deals_done = len(done)
    comparison.games_done = len(done) * 2 * players
    comparison.estimate = estimate_json(Estimate.of([deal.score_diff for deal in done.values()]))
    comparison.forfeits = forfeits_json(comparison, done)
    fields = ["deals_done", "games_done", "estimate", "forfeits"]
    stopping = stopping_of(comparison)
    counted, decided = settle(in_order, stopping)
    if decided is not None or counted == comparison.deals:
        outcome = summarize(
            version_label(comparison.version),
            version_label(comparison.against),
            in_order[:counted],
            players,
            stopping,
            decided,
        )
        comparison.status = BotComparison.Status.FINISHED
        comparison.result = result_json(outcome)
        comparison.finished_at = timezone.now()
        fields += ["status", "result", "finished_at"]
        _cancel_queued(comparison.pk)
    elif comparison.deals_sent < comparison.deals:
        _send_deal(comparison, comparison.deals_sent)
        comparison.deals_sent += 1
        fields.append("deals_sent")
    comparison.save(update_fields=fields)


def forfeits_json(comparison: BotComparison, done: dict[int, DealScores]) -> list[dict[str, Any]]:
    """Every forfeit of the deals done, in deal order, each with the version that forfeited, its seat and why."""
    forfeits: list[dict[str, Any]] = []
    for number in sorted(done):
        deal = done[number]
        for version, reasons in ((comparison.version, deal.reasons_a), (comparison.against, deal.reasons_b)):
            for seat, reason in reasons:
                forfeits.append(
                    {
                        "version": version.number,
                        "bot": version.bot_id,
                        "deal": number + 1,
                        "seed": deal.seed,
                        "seat": seat,
                        "reason": reason,
                    }
                )
    return forfeits


def _cancel_queued(comparison_id: int) -> None:
    ComparisonDeal.objects.filter(comparison_id=comparison_id, status=ComparisonDeal.Status.QUEUED).update(
        status=ComparisonDeal.Status.CANCELLED, lease_expires_at=None, finished_at=timezone.now()
    )


def fail_deal(deal_id: int, attempt: int, reason: str) -> None:
    """The deal failed for good: so does its comparison, naming the deal and why; its progress stays."""
    now = timezone.now()
    with transaction.atomic():
        comparison_id = ComparisonDeal.objects.values_list("comparison_id", flat=True).get(pk=deal_id)
        BotComparison.objects.select_for_update().filter(pk=comparison_id).first()
        deal = ComparisonDeal.objects.filter(pk=deal_id, attempt=attempt).exclude(
            status__in=[ComparisonDeal.Status.FINISHED, ComparisonDeal.Status.CANCELLED]
        )
        number_seed = deal.values_list("number", "seed").first()
        if number_seed is None:
            return
        deal.update(status=ComparisonDeal.Status.FAILED, error=reason, finished_at=now, lease_expires_at=None)
        number, seed = number_seed
        BotComparison.objects.filter(pk=comparison_id, status=BotComparison.Status.RUNNING).update(
            status=BotComparison.Status.FAILED,
            finished_at=now,
            error=f"deal {number + 1} (seed {seed}) {reason}; start the comparison again",
        )
        _cancel_queued(comparison_id)


# -- sweeping -------------------------------------------------------------------------------------


def sweep_deals(now: datetime | None = None) -> int:
    """Send again the deals whose worker died (lease out) or whose message was lost (once per deadline)."""
    now = now or timezone.now()
    resent = 0
    for deal_id, attempt in DEAL_LEASE.expired(now):
        # Queued under the same attempt count: the next claim takes it over, or fails it after the last.
        with transaction.atomic():
            if DEAL_LEASE.requeue(deal_id, attempt, "its worker stopped", only_expired=True):
                send_on_commit(TaskName.PLAY_COMPARISON_DEAL, (deal_id,))
                resent += 1
    for deal_id, resends in DEAL_LEASE.due_for_resend(now):
        with transaction.atomic():
            if DEAL_LEASE.mark_resent(deal_id, resends, now):
                send_on_commit(TaskName.PLAY_COMPARISON_DEAL, (deal_id,))
                resent += 1
    return resent


def fail_abandoned(now: datetime | None = None) -> int:
    """Comparisons still running past their time limit are failed, saying so (a backstop: deals have leases)."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=COMPARE_TIME_LIMIT_SECONDS + 60)
    stuck = list(
        BotComparison.objects.filter(status=BotComparison.Status.RUNNING, started_at__lt=cutoff).values_list(
            "pk", flat=True
        )
    )
    failed = 0
    for comparison_id in stuck:
        with transaction.atomic():
            failed += BotComparison.objects.filter(pk=comparison_id, status=BotComparison.Status.RUNNING).update(
                status=BotComparison.Status.FAILED,
                finished_at=now,
                error="its workers did not finish its deals within its time limit; start it again",
            )
            _cancel_queued(comparison_id)
    return failed


def sweep(now: datetime | None = None) -> dict[str, Any]:
    return {"comparison_deals_resent": sweep_deals(now), "comparisons_failed": fail_abandoned(now)}
