"""Taking a queued match for one attempt, giving it back, failing it after its last attempt.

A match moves queued -> running (claimed through `arena.leases`, the fencing token `attempt`
bumped) -> finished (`results.commit`), or back to queued after an error, or failed after the last
attempt. Only the holder of the current attempt can commit a result.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone
from redis.exceptions import RedisError

from arena.dispatch import BROKER_ERRORS, send_now, send_on_commit
from arena.leases import Lease
from arena.models import Match, MatchSeat, Player
from arena.rows import instance, select_columns
from common.task_names import TaskName

log = logging.getLogger(__name__)

MATCH_LEASE = Lease(
    model=Match,
    queued=Match.Status.QUEUED,
    running=Match.Status.RUNNING,
    lease_seconds=lambda: float(settings.ARENA_MATCH_LEASE_SECONDS),
    max_attempts=lambda: int(settings.ARENA_MATCH_MAX_ATTEMPTS),
    started_field="started_at",
    error_field="error",
    unsent_field="unsent",
)

# The other matches a task may claim with its own: only those where every seat is a built-in bot,
# whose games take milliseconds (a submitted bot's can take minutes; its own task plays it), and
# only when its own match is one of those too (else they would wait behind it).
# OFFSET 0 keeps it a subplan run for each candidate in id order (a few index lookups, and the scan
# stops at the lease's size): made an anti-join, it read every seat ever played before the first match.
_NOT_BUILTIN_SEAT = (
    "SELECT 1 FROM arena_matchseat seat JOIN arena_player player ON player.id = seat.player_id"
    " WHERE seat.match_id = {match} AND player.builtin = '' OFFSET 0"
)
BUILTIN_ONLY = (
    f"NOT EXISTS ({_NOT_BUILTIN_SEAT.format(match='candidate.id')})"
    f" AND NOT EXISTS ({_NOT_BUILTIN_SEAT.format(match='%(pk)s')})"
)
# What a lease of queued work takes (`claim_queued`): matches of built-in bots only, no table of a
# duplicate deal (those are claimed with their deal, by their own messages).
QUEUED_WORK = f"candidate.deal_group IS NULL AND NOT EXISTS ({_NOT_BUILTIN_SEAT.format(match='candidate.id')})"


def dispatch_match(match_id: int, *, after_s: float = 0.0) -> None:
    """Send the play task once the surrounding transaction commits (to run no sooner than `after_s` later)."""
    eta = timezone.now() + timedelta(seconds=after_s) if after_s > 0 else None
    send_on_commit(TaskName.PLAY_MATCH, (match_id,), eta=eta)


def dispatch_queued(players: Sequence[Player], deal_group: object = None) -> bool:
    """A match just queued: offer it as queued work (`offer_work`) where a lease may take it; True if so.

    A match of built-in bots only, outside a duplicate deal, needs no message of its own: one
    `arena.play_queued` message leases a batch of them (and offers the rest on), so a backlog costs a
    message per batch, not per match. Any other match is sent its own `arena.play_match` by the caller.
    """
    if deal_group is not None or not all(player.is_builtin for player in players):
        return False
    transaction.on_commit(offer_work)
    return True


def _offer_key() -> str:
    # The cache's prefix names the database; the queue names the workers that take the offer.
    return f"play-queued-offered:{settings.CELERY_TASK_DEFAULT_QUEUE}"


def offer_work(*, renew: bool = False) -> None:
    """Send one `arena.play_queued` message unless one is already waiting for a worker (a flag in the cache).

    The flag is set with the message and cleared by the task before it claims (`claim_queued`), so
    a match committed while the flag is set is seen by that claim. It expires after
    ARENA_QUEUED_RESEND_SECONDS: a message lost with the broker stops no later offer. When the cache
    does not answer, the message is sent anyway. `renew`: the offer standing is lost (the sweeper
    found no message in the broker): a new one is sent all the same.
    """
    if renew:
        _take_offer()
    try:
        seconds = max(1, int(float(settings.ARENA_QUEUED_RESEND_SECONDS)))
        if not cache.add(_offer_key(), 1, timeout=seconds):
            return
    except RedisError as exc:
        log.warning("cannot read the offer of queued work (%s): offering it again", exc)
    try:
        send_now(TaskName.PLAY_QUEUED, ())
    except BROKER_ERRORS:
        # Nothing waits for a worker: the next match queued offers again, and the sweeper resends meanwhile.
        log.exception("the broker refused an offer of queued work; the sweepers will resend the matches")
        _take_offer()


def work_offered() -> bool:
    """An `arena.play_queued` message waits for a worker: every queued match a lease takes has its message."""
    try:
        return cache.get(_offer_key()) is not None
    except RedisError:
        return False


def queued_work(ids: Sequence[int]) -> set[int]:
    """Those of these matches that a lease of queued work takes (`QUEUED_WORK`), whatever their status."""
    if not ids:
        return set()
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT candidate.id FROM arena_match candidate WHERE candidate.id = ANY(%s) AND {QUEUED_WORK}",
            [list(ids)],
        )
        return {int(row[0]) for row in cursor.fetchall()}


def _take_offer() -> None:
    try:
        cache.delete(_offer_key())
    except RedisError as exc:
        log.warning("cannot clear the offer of queued work (%s); it expires by itself", exc)


@dataclass(frozen=True)
class Glance:
    """A match's state as one plain read saw it (no lock): enough to skip a task that has nothing to do."""

    over: bool  # finished or failed: nothing will ever change it again
    grouped: bool  # a table of a duplicate deal (claimed with its deal)


def glance(match_id: int) -> Glance | None:
    """One statement, no transaction; None if there is no such match."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT status, deal_group IS NOT NULL FROM arena_match WHERE id = %s", [match_id])
        row = cursor.fetchone()
    if row is None:
        return None
    status, grouped = row
    return Glance(status in (Match.Status.FINISHED, Match.Status.FAILED), bool(grouped))


def give_up(match_id: int, attempt: int, reason: str) -> bool:
    failed = Match.objects.filter(
        pk=match_id, attempt=attempt, status__in=[Match.Status.RUNNING, Match.Status.QUEUED]
    ).update(
        status=Match.Status.FAILED,
        lease_expires_at=None,
        error=f"failed after {attempt} attempts: {reason}",
        finished_at=timezone.now(),
    )
    return failed == 1


def release_after_error(match_id: int, attempt: int, reason: str) -> None:
    """An attempt raised: retry it later, or fail the match after the last attempt."""
    if attempt >= settings.ARENA_MATCH_MAX_ATTEMPTS:
        give_up(match_id, attempt, reason)
        return
    with transaction.atomic():
        if MATCH_LEASE.requeue(match_id, attempt, f"attempt {attempt}: {reason}"):
            dispatch_match(match_id)


# The claimed matches (`won`) with their seats and players, read by the claim's own statement.
# Each match's seats are looked up by its id (a LATERAL subquery kept apart by OFFSET 0): joined as a
# whole, PostgreSQL, which cannot tell how many matches the claim wins, hashed every seat ever played.
_READ_CLAIMED = (
    f"SELECT won.id, won.attempt, {select_columns('won', Match)}, {select_columns('seat', MatchSeat)},"
    f" {select_columns('player', Player)} FROM won LEFT JOIN LATERAL (SELECT * FROM arena_matchseat seat"
    " WHERE seat.match_id = won.id OFFSET 0) seat ON true LEFT JOIN arena_player player ON player.id = seat.player_id"
    " ORDER BY won.id, seat.seat"
)


@dataclass
class Claimed:
    """What a claim won: [(match id, attempt)], and the matches with their seats (players loaded), as claimed."""

    claims: list[tuple[int, int]]
    matches: dict[int, Match]
    seats: dict[int, list[MatchSeat]]


def claim_and_read(match_id: int, extra: int) -> Claimed:
    """Claim match_id and up to `extra` other queued built-in bot matches, and read the claimed matches
    with their seats and players by the claim's own statement.

    One round trip instead of three (claim, matches, seats); the rows are made into model
    instances directly (`Model.from_db`), without a queryset per batch.
    """
    won, exhausted, rows = MATCH_LEASE.claim_and_read(match_id, extra, BUILTIN_ONLY, _READ_CLAIMED)
    if exhausted is not None:
        give_up(match_id, exhausted, "the last attempt did not finish before its lease expired")
    return _claimed(won, rows)


def _claimed(won: list[tuple[int, int]], rows: list[tuple[Any, ...]]) -> Claimed:
    """The claims and the rows of `_READ_CLAIMED` as model instances."""
    match_end = 2 + len(Match._meta.concrete_fields)
    seat_end = match_end + len(MatchSeat._meta.concrete_fields)
    matches: dict[int, Match] = {}
    seats: dict[int, list[MatchSeat]] = {}
    # A batch seats the same players many times: one instance each, read from the statement's one snapshot.
    players: dict[int, Player] = {}
    for row in rows:
        match = matches.get(row[0]) or matches.setdefault(row[0], instance(Match, row[2:match_end]))
        match_seats = seats.setdefault(match.pk, [])
        if row[match_end] is None:  # a match without seats (none is made so): claimed all the same
            continue
        seat = instance(MatchSeat, row[match_end:seat_end])
        player = players.get(seat.player_id)
        if player is None:
            player = players[seat.player_id] = instance(Player, row[seat_end:])
        seat.player = player
        seat.match = match
        match_seats.append(seat)
    return Claimed(list(won), matches, seats)


def claim_queued(limit: int) -> Claimed:
    """A lease of queued work: up to `limit` queued built-in bot matches (`QUEUED_WORK`), oldest first,
    claimed and read with their seats and players in one round trip, as `claim_and_read`.

    The offer that brought the task is taken first (`offer_work`'s flag cleared), then the claim
    sees every match committed before, and one committed later offers work again.
    """
    _take_offer()
    won, rows = MATCH_LEASE.lease_queued(limit, QUEUED_WORK, _READ_CLAIMED)
    return _claimed(won, rows)


def claim_group(match_id: int) -> list[tuple[int, int]]:
    """Claim every claimable table of match_id's duplicate deal at once, or none: [(match id, attempt)].

    The rows of the group are locked in id order first; while any of them is running under a live
    lease (another task plays the deal), nothing is claimed. Tables out of attempts are failed.
    """
    now = timezone.now()
    lease_until = now + timedelta(seconds=MATCH_LEASE.lease_seconds())
    won: list[tuple[int, int]] = []
    exhausted: list[tuple[int, int]] = []
    with transaction.atomic():
        group = Match.objects.filter(pk=match_id).values_list("deal_group", flat=True).first()
        if group is None:
            return []
        rows = list(
            Match.objects.select_for_update()
            .filter(deal_group=group)
            .order_by("pk")
            .values_list("pk", "status", "attempt", "lease_expires_at")
        )
        live = [pk for pk, status, _, lease in rows if status == Match.Status.RUNNING and lease and lease >= now]
        if live:
            return []
        for pk, status, attempt, _ in rows:
            if status not in (Match.Status.QUEUED, Match.Status.RUNNING):
                continue
            if attempt >= MATCH_LEASE.max_attempts():
                exhausted.append((pk, attempt))
                continue
            Match.objects.filter(pk=pk, attempt=attempt).update(
                status=Match.Status.RUNNING, attempt=attempt + 1, lease_expires_at=lease_until, started_at=now
            )
            won.append((pk, attempt + 1))
    for pk, attempt in exhausted:
        give_up(pk, attempt, "the last attempt did not finish before its lease expired")
    return won


def give_back(later: list[tuple[int, int]], *, resend: Collection[int] = (), after_s: float = 0.0) -> list[int]:
    """Claims not played go back to the queue at once, each with the attempt it had before.

    A match's play task is sent again only if its message is used up: it is in `resend` (the caller
    took its message) or a task found it held by this batch meanwhile (`Match.unsent`). The others'
    messages still wait in the broker: sending them again would only pile up copies. Returns the
    ids sent again, each to run no sooner than `after_s` later (a server too busy to start a bot now).
    Matches leased as queued work have no message of their own: work is offered again (`offer_work`)
    for any given back.
    """
    with transaction.atomic():
        again = MATCH_LEASE.unclaim(later, resend=resend)
        for match_id in again:
            dispatch_match(match_id, after_s=after_s)
        if later:
            transaction.on_commit(offer_work)
    return again
