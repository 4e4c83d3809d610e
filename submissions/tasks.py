"""Celery tasks of submitted bots: JSON arguments (ids only), stable names, idempotent."""

from __future__ import annotations

from celery import shared_task

from common.task_names import TaskName
from submissions import actions, comparison_deals
from submissions.actions import VALIDATION_LEASE_SECONDS


@shared_task(  # type: ignore[call-overload, untyped-decorator]  # Celery takes float seconds; its stubs say int
    name=TaskName.VALIDATE_VERSION,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=VALIDATION_LEASE_SECONDS * 0.9,
    time_limit=VALIDATION_LEASE_SECONDS * 0.95,
)
def validate_version(version_id: int) -> str:
    return actions.run_validation(int(version_id))


@shared_task(name=TaskName.SWEEP_VALIDATIONS, acks_late=True, time_limit=60)
def sweep_validations() -> dict[str, int]:
    return {**actions.sweep_validations(), **comparison_deals.sweep()}


# Claims the comparison and sends its first deals: a few queries, then each deal is a task of its own.
@shared_task(name=TaskName.RUN_COMPARE, acks_late=True, reject_on_worker_lost=True, soft_time_limit=50, time_limit=60)
def run_compare(comparison_id: int) -> str:
    return comparison_deals.run_compare(int(comparison_id))


@shared_task(  # type: ignore[call-overload, untyped-decorator]  # Celery takes float seconds; its stubs say int
    name=TaskName.PLAY_COMPARISON_DEAL,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=comparison_deals.DEAL_TIME_LIMIT_SECONDS * 0.95,
    time_limit=comparison_deals.DEAL_TIME_LIMIT_SECONDS,
)
def play_comparison_deal(deal_id: int) -> str:
    return comparison_deals.play_deal(int(deal_id))
