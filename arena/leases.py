"""One lease / claim / fencing mechanism for every row a worker takes for a while: matches and bot versions.

A row waits in a queued status, is claimed with a conditional UPDATE that moves it to the running
status and bumps `attempt` (the fencing token), and only the holder of that attempt may finish it.
A running row whose lease expired may be claimed again; after the last attempt it fails. While
queued, `lease_expires_at` is the deadline for re-sending its task, doubled after each resend
(`resends` counts them) so a backlog is never sent twice over.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, models, transaction
from django.db.models import F, Q
from django.utils import timezone

from arena.rows import run_together


@dataclass(frozen=True)
class Lease:
    """How one kind of row is claimed: its model, statuses, lease length and attempt limit."""

    model: type[models.Model]
    queued: str
    running: str
    # Read when used, so settings changed at run time (tests, operators) apply.
    lease_seconds: Callable[[], float]
    max_attempts: Callable[[], int]
    started_field: str | None = None
    # The text column that keeps why the last attempt ended, if the model has one.
    error_field: str | None = None
    # A boolean column, if the model has one: the row's message was used up by a task that found the
    # row held by another claimer's batch (see `claim_and_read` and `unclaim`).
    unsent_field: str | None = None

    def resend_deadline(self, resends: int = 0, now: datetime | None = None) -> datetime:
        """When a queued row not picked up by then is sent again: the interval, doubling per resend."""
        now = now or timezone.now()
        interval = float(settings.ARENA_QUEUED_RESEND_SECONDS) * (2 ** min(resends, 16))
        return now + timedelta(seconds=interval)

    def claimable(self, now: datetime) -> Q:
        return Q(status=self.queued) | Q(status=self.running, lease_expires_at__lt=now)

    def claim(self, pk: int) -> tuple[int | None, int | None]:
        """(the attempt won or None, the attempt of a claimable row out of attempts or None).

        One conditional UPDATE wins; a row that may be claimed but has used all its attempts is
        reported so that the caller fails it with its own reason.
        """
        now = timezone.now()
        row = self.model._default_manager.filter(pk=pk).values("status", "attempt", "lease_expires_at").first()
        if row is None:
            return None, None
        status, attempt, lease = row["status"], row["attempt"], row["lease_expires_at"]
        stuck = status == self.running and lease is not None and lease < now
        if status != self.queued and not stuck:
            return None, None
        if attempt >= self.max_attempts():
            return None, attempt
        changes: dict[str, Any] = {
            "status": self.running,
            "attempt": attempt + 1,
            "lease_expires_at": now + timedelta(seconds=self.lease_seconds()),
        }
        if self.started_field:
            changes[self.started_field] = now
        won = self.model._default_manager.filter(self.claimable(now), pk=pk, attempt=attempt).update(**changes)
        return (attempt + 1 if won == 1 else None), None

    def claim_and_read(
        self, pk: int, extra: int, extra_filter: str = "", read: str = ""
    ) -> tuple[list[tuple[int, int]], int | None, list[tuple[Any, ...]]]:
        """Claim `pk` and up to `extra` other queued rows in one round trip; one conditional UPDATE ... RETURNING.

        Returns ([(pk, attempt won)], the attempt of `pk` if it may be claimed but is out of
        attempts, the rows of `read`). `pk` is claimed as by `claim`; the others are queued rows
        with attempts left, oldest first, that no other transaction holds (SKIP LOCKED) and that
        pass `extra_filter` (an SQL condition on the candidate row, aliased `candidate`). Every
        row's status and attempt are checked again by the UPDATE once it holds the row, so two
        claimers never win the same attempt: the fencing token rule of `claim`, for many rows at once.
        `read`, if given, is a SELECT over `won` (the claimed rows as updated, every column) run by
        the same statement, so what the caller needs of them comes back with the claim.

        Lock order: `pk`'s row is locked first, alone (the only lock this transaction waits for);
        the others are then taken with SKIP LOCKED, which never waits. Taking the candidates first
        and then waiting for `pk` deadlocked two claimers whose own rows were each other's
        candidates. A `pk` held by another claimer's batch is marked `unsent_field`: its message
        is used up, so if that batch gives it back unplayed, it must be sent again. The three
        statements go in one round trip (`arena.rows.run_together`), one transaction.
        """
        now = timezone.now()
        table = connection.ops.quote_name(self.model._meta.db_table)
        started = f", {connection.ops.quote_name(self.started_field)} = %s" if self.started_field else ""
        max_attempts = self.max_attempts()
        lease = now + timedelta(seconds=self.lease_seconds())
        others = ""
        other_params: list[Any] = []
        if extra > 0:
            others = (
                f" OR id IN (SELECT candidate.id FROM {table} candidate WHERE candidate.status = %s"
                " AND candidate.attempt < %s AND candidate.id <> %s"
                + (f" AND ({extra_filter.replace('%(pk)s', '%s')})" if extra_filter else "")
                + " ORDER BY candidate.id LIMIT %s FOR UPDATE SKIP LOCKED)"
            )
            other_params = [self.queued, max_attempts, pk]
            other_params += [pk] * extra_filter.count("%(pk)s")
            other_params.append(extra)
        update = (
            f"UPDATE {table} SET status = %s, attempt = attempt + 1, lease_expires_at = %s{started}"
            " WHERE (status = %s OR (status = %s AND lease_expires_at < %s)) AND attempt < %s"
            f" AND (id = %s{others}) RETURNING " + ("*" if read else "id, attempt")
        )
        update_params: list[Any] = [self.running, lease, *([now] if self.started_field else [])]
        update_params += [self.queued, self.running, now, max_attempts, pk, *other_params]
        statements: list[tuple[str, Sequence[Any]]] = [
            (f"SELECT status, attempt, lease_expires_at FROM {table} WHERE id = %s FOR UPDATE", [pk])
        ]
        if self.unsent_field:
            unsent = connection.ops.quote_name(self.unsent_field)
            statements.append(
                (
                    f"UPDATE {table} SET {unsent} = true WHERE id = %s AND status = %s AND lease_expires_at >= %s",
                    [pk, self.running, now],
                )
            )
        if read:
            statements.append((f"WITH won AS ({update}) {read}", update_params))
        else:
            statements.append((update, update_params))
        # Not durable: a claim that a crash of PostgreSQL undoes had no result committed on it (a result's
        # commit is synchronous and flushes the log up to itself); its match is simply queued again.
        results = run_together(statements, durable=False)
        if not results[0]:
            return [], None, []
        status, attempt, lease_at = results[0][0]
        rows = results[-1]
        won = sorted({(int(row[0]), int(row[1])) for row in rows})
        if any(row_pk == pk for row_pk, _ in won):
            return won, None, rows
        # Not ours: a claimable row (queued, or running past its lease) that has used all its attempts.
        stuck = status == self.running and lease_at is not None and lease_at < now
        if attempt >= max_attempts and (status == self.queued or stuck):
            return won, attempt, rows
        return won, None, rows

    def lease_queued(
        self, limit: int, extra_filter: str = "", read: str = ""
    ) -> tuple[list[tuple[int, int]], list[tuple[Any, ...]]]:
        """Claim up to `limit` queued rows with attempts left, oldest first, none of them the caller's own:
        one conditional UPDATE ... RETURNING, in one round trip; ([(pk, attempt won)], the rows of `read`).

        The rows are the `claim_and_read` candidates (queued, attempts left, `extra_filter` on
        `candidate`, SKIP LOCKED: it never waits for a lock), each checked again by the UPDATE once
        it holds the row, so two claimers never win the same attempt. `read`, if given, is a SELECT
        over `won` (the claimed rows as updated), run by the same statement.
        """
        now = timezone.now()
        table = connection.ops.quote_name(self.model._meta.db_table)
        started = f", {connection.ops.quote_name(self.started_field)} = %s" if self.started_field else ""
        max_attempts = self.max_attempts()
        # The candidates are picked once (a materialized CTE): a subquery with LIMIT under IN may be
        # run again per row, and then takes more than `limit` rows.
        picked = (
            f"WITH picked AS MATERIALIZED (SELECT candidate.id FROM {table} candidate"
            " WHERE candidate.status = %s AND candidate.attempt < %s"
            + (f" AND ({extra_filter})" if extra_filter else "")
            + " ORDER BY candidate.id LIMIT %s FOR UPDATE SKIP LOCKED)"
        )
        update = (
            f"UPDATE {table} SET status = %s, attempt = attempt + 1, lease_expires_at = %s{started}"
            f" FROM picked WHERE {table}.id = picked.id AND {table}.status = %s AND {table}.attempt < %s"
            f" RETURNING {table}." + ("*" if read else "id, attempt")
        )
        params: list[Any] = [self.queued, max_attempts, limit, self.running]
        params += [now + timedelta(seconds=self.lease_seconds()), *([now] if self.started_field else [])]
        params += [self.queued, max_attempts]
        sql = f"{picked}, won AS ({update}) {read}" if read else f"{picked} {update}"
        statement = (sql, params)
        # Not durable, as `claim_and_read`: a claim that a crash of PostgreSQL undoes is simply queued again.
        rows = run_together([statement], durable=False)[0]
        return sorted({(int(row[0]), int(row[1])) for row in rows}), rows

    def unclaim(self, claims: Sequence[tuple[int, int]], *, resend: Collection[int] = ()) -> list[int]:
        """Give back rows claimed but never started: queued again with the attempt each had before.

        Safe under the fencing rule: nobody played those attempts, and their holder gives them up.
        The rows are locked in id order (the one order of every transaction that locks several).
        Returns the rows given back that need their message sent again: those in `resend` (the
        caller used up their message) and those marked `unsent_field`; the others still have
        theirs waiting in the broker.
        """
        if not claims:
            return []
        wanted = dict(claims)
        fields = ["pk", "attempt", *([self.unsent_field] if self.unsent_field else [])]
        manager = self.model._default_manager
        again: list[int] = []
        with transaction.atomic():
            rows = manager.select_for_update().filter(pk__in=list(wanted), status=self.running).order_by("pk")
            for row in rows.values_list(*fields):
                pk, attempt = row[0], row[1]
                if wanted.get(pk) != attempt:
                    continue
                changes: dict[str, Any] = {
                    "status": self.queued,
                    "attempt": attempt - 1,
                    "lease_expires_at": self.resend_deadline(),
                }
                if self.started_field:
                    changes[self.started_field] = None
                if self.unsent_field:
                    changes[self.unsent_field] = False
                manager.filter(pk=pk).update(**changes)
                if pk in resend or (self.unsent_field and row[2]):
                    again.append(pk)
        return again

    def requeue(self, pk: int, attempt: int, error: str, *, only_expired: bool = False) -> bool:
        """Back to queued after a failed or abandoned attempt, fenced by the attempt."""
        rows = self.model._default_manager.filter(pk=pk, status=self.running, attempt=attempt)
        if only_expired:
            rows = rows.filter(lease_expires_at__lt=timezone.now())
        changes: dict[str, Any] = {"status": self.queued, "lease_expires_at": self.resend_deadline(), "resends": 0}
        if self.unsent_field:
            changes[self.unsent_field] = False  # its caller sends it again
        if self.error_field:
            changes[self.error_field] = error
        return rows.update(**changes) == 1

    def due_for_resend(self, now: datetime) -> list[tuple[int, int]]:
        """(pk, resends) of queued rows whose resend deadline passed, oldest first."""
        return list(
            self.model._default_manager.filter(status=self.queued, lease_expires_at__lt=now)
            .order_by("lease_expires_at", "pk")
            .values_list("pk", "resends")
        )

    def mark_resent(self, pk: int, resends: int, now: datetime) -> bool:
        """Push the deadline back (doubling) before re-sending: one resend per deadline, whoever sweeps."""
        return (
            self.model._default_manager.filter(
                pk=pk, status=self.queued, resends=resends, lease_expires_at__lt=now
            ).update(
                resends=F("resends") + 1,
                lease_expires_at=self.resend_deadline(resends + 1, now),
                **({self.unsent_field: False} if self.unsent_field else {}),
            )
            == 1
        )

    def expired(self, now: datetime) -> list[tuple[int, int]]:
        """(pk, attempt) of running rows whose lease ran out (their worker died)."""
        return list(
            self.model._default_manager.filter(status=self.running, lease_expires_at__lt=now).values_list(
                "pk", "attempt"
            )
        )
