"""The finisher: plays claimed matches and commits their results, moving the ratings explicitly.

A play task (`results.tasks`) claims its match and other queued built-in bot matches
(`arena.claims`), plays them outside any transaction (`arena.runner`), then commits them together:
the match rows locked, the ratings moved by `ratings.ledger.rate` (which returns the changes it
wrote), the seats written with their placings and rating changes, and `match_committed` sent for
the features above, all in one transaction. Tables with people commit through `commit_result` too.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from arena import runner
from arena.claims import (
    MATCH_LEASE,
    Claimed,
    claim_and_read,
    claim_group,
    give_back,
    glance,
    release_after_error,
)
from arena.models import Match, MatchSeat
from arena.rows import run_together, update_statement
from botclient.lockstep import Lockstep
from common.outages import OUTAGES, retrying
from games.part_du_chef.placing import RECORD_FIELD, placings, record_verdict
from ratings.ledger import GameResult, rate_deferred
from results.signals import match_committed, matches_committed

log = logging.getLogger(__name__)

_TICK = timedelta(microseconds=1)
# Shares of the lease: how long a play task retries through an outage, and then tries to give back its claims.
_RETRY_SHARE = 0.7
_GIVE_BACK_SHARE = 0.08


# The matches this process committed lately, by database. A finished match never changes again, so
# the task that brings one of them (its own message, after another task's batch played it) ends
# without a query, as it would after one. Bounded: a task comes soon after its batch, if ever.
_RECENT_LIMIT = 4096
_recent: OrderedDict[tuple[str, int], None] = OrderedDict()


def _remember(ids: Collection[int]) -> None:
    name = str(connection.settings_dict["NAME"])
    for pk in sorted(ids):
        _recent[(name, pk)] = None
    while len(_recent) > _RECENT_LIMIT:
        _recent.popitem(last=False)


def _committed_here(match_id: int) -> bool:
    return (str(connection.settings_dict["NAME"]), match_id) in _recent


@dataclass
class Finished:
    """A match played under one attempt, waiting to be committed (seats in seat order)."""

    match: Match
    attempt: int
    seats: list[MatchSeat]
    played: runner.PlayedGame


def commit_result(match_id: int, attempt: int, played: runner.PlayedGame) -> bool:
    """Write the result, the seats' placings and the ratings at once.

    False if the attempt lost the match, or the match was already rated.
    """
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return False
    seats = list(match.seats.select_related("player").order_by("seat"))
    return match_id in commit_results([Finished(match, attempt, seats, played)])


def commit_results(batch: Sequence[Finished]) -> set[int]:
    """Commit several played matches in one transaction; the ids committed.

    Each match is committed only by the holder of its current attempt (checked with the match rows
    locked, in id order). Then the ratings of the rated ones move (`ratings.ledger.rate`, which
    locks the rating rows of the whole batch at once and returns what it wrote), the seats get their
    placings and rating changes, and `match_committed` tells the features above, in batch order.
    If the batch cannot commit as a whole (a match already rated), each match is committed alone so
    that the others still count.
    """
    if not batch:
        return set()
    try:
        return _commit_together(batch)
    except IntegrityError:
        if len(batch) == 1:
            log.warning("match %s was already rated; attempt %s discarded", batch[0].match.pk, batch[0].attempt)
            return set()
    committed: set[int] = set()
    for item in batch:
        committed |= commit_results([item])
    return committed


def _commit_together(batch: Sequence[Finished]) -> set[int]:
    with transaction.atomic():
        rows = (
            Match.objects.select_for_update()
            .filter(pk__in=[item.match.pk for item in batch])
            .order_by("pk")
            .values_list("pk", "attempt", "status")
        )
        current = {pk: (attempt, status) for pk, attempt, status in rows}
        ours = [item for item in batch if current.get(item.match.pk) == (item.attempt, Match.Status.RUNNING)]
        if not ours:
            return set()
        changes, writes = rate_deferred(
            [
                GameResult(
                    match=item.match,
                    players=[seat.player for seat in item.seats],
                    totals=item.played.totals,
                    forfeited=item.played.forfeited,
                )
                for item in ours
                if item.match.rated
            ]
        )
        # Taken once the rating rows are locked, strictly increasing through the batch: per player,
        # finishing times follow the order in which the ratings moved.
        finished_at = timezone.now() - _TICK
        for item in ours:
            finished_at = max(timezone.now(), finished_at + _TICK)
            match, played = item.match, item.played
            placed = placings(played.totals, played.forfeited)
            record = dict(played.record)
            record[RECORD_FIELD] = record_verdict(
                played.totals, played.forfeited, played.stand_in, len(record.get("actions") or [])
            )
            for index, seat in enumerate(item.seats):
                seat.score = played.totals[index]
                seat.rank = placed[index]
                seat.forfeited = played.forfeited[index]
                change = changes.get((match.pk, seat.player_id))
                if change is not None:
                    seat.rating_before, seat.rating_after = change.before, change.after
            match.status = Match.Status.FINISHED
            match.attempt = item.attempt
            match.record = record
            match.lease_expires_at = None
            match.error = ""
            match.finished_at = finished_at
        # The ratings' writes (ledger rows first: a second rating fails there), then the matches and
        # seats: one round trip for all of them.
        run_together(
            [
                *writes,
                update_statement(
                    Match,
                    [item.match for item in ours],
                    ["status", "record", "lease_expires_at", "error", "finished_at"],
                ),
                update_statement(
                    MatchSeat,
                    [seat for item in ours for seat in item.seats],
                    ["score", "rank", "forfeited", "rating_before", "rating_after"],
                ),
            ]
        )
        for item in ours:
            # The features above (tournaments, submitted bots) write in this same transaction.
            match_committed.send(sender=Match, match=item.match, seats=item.seats, played=item.played)
        matches_committed.send(sender=Match, matches=[item.match for item in ours])
        committed = {item.match.pk for item in ours}
        transaction.on_commit(partial(_remember, committed))
    return committed


def run_match(match_id: int) -> str:
    """Claim, play and commit one match. Safe to call any number of times, even concurrently."""
    return run_matches(match_id, extra=0)


def run_matches(match_id: int, extra: int | None = None) -> str:
    """Claim match_id and up to `extra` other queued built-in bot matches, play them, commit them at once.

    Claiming, reading and committing are one statement or one transaction for the whole batch
    instead of one per match. The other matches are played only while the batch is young
    (ARENA_CLAIM_BATCH_SECONDS, at most a quarter of the lease); the rest are given back unplayed.
    A table of a duplicate deal is played with the other tables of its deal instead (`run_deal`).
    Returns what became of match_id, as `run_match` does. Safe to call any number of times,
    concurrently.

    An outage of the database or the broker (`common.outages`) is no fault of a match: each step
    is retried on a fresh connection while the claims' leases last, a game it interrupted is given
    back with the attempt it had, and if the outage outlasts the retries every claim not committed is
    given back the same way once the database answers. None of this uses up an attempt; only a
    game that fails, or a lease that runs out (the worker died), does.
    """
    if _committed_here(match_id):
        return "not claimed"
    if extra is None:
        extra = int(settings.ARENA_CLAIM_BATCH) - 1
    # Retries stop well before the leases run out (and before the task's soft time limit).
    until = time.monotonic() + MATCH_LEASE.lease_seconds() * _RETRY_SHARE
    # Most tasks of a batch find their match played already: one plain read says so, and they stop there.
    # One that finds it held by another batch still claims (marking its message used up) and takes
    # other queued matches with it, so both workers play.
    seen = retrying(lambda: glance(match_id), until=until, what=f"reading match {match_id}")
    if seen is None or (seen.over and not seen.grouped):
        return "not claimed"
    if seen.grouped:
        return run_deal(match_id)
    claimed = retrying(lambda: claim_and_read(match_id, extra), until=until, what=f"claiming match {match_id}")
    return _play_or_give_back(match_id, claimed.claims, until, partial(_play_claimed, claimed))


def _play_claimed(claimed: Claimed, match_id: int, attempts: dict[int, int], until: float) -> str:
    matches, seats = claimed.matches, claimed.seats
    # A batch's results wait for its last game: they are held back at most about this long.
    budget = time.monotonic() + min(float(settings.ARENA_CLAIM_BATCH_SECONDS), MATCH_LEASE.lease_seconds() / 4)
    # The task's own match first: it is the one its message asked for.
    order = sorted(attempts, key=lambda pk: (pk != match_id, pk))
    outcome: dict[int, str] = {}
    batch: list[Finished] = []
    interrupted: list[int] = []
    for index, pk in enumerate(order):
        if index > 0 and time.monotonic() > budget:
            later = [(pk, attempts[pk]) for pk in order[index:]]
            retrying(partial(give_back, later), until=until, what="giving back unplayed matches")
            break
        match = matches[pk]
        try:
            played = runner.play(
                match.game,
                [seat.player for seat in seats[pk]],
                match.seed,
                match.options,
                move_delay=settings.ARENA_BOT_MOVE_DELAY_SECONDS,
                match_id=pk,
            )
        except OUTAGES as exc:  # the database or the broker, not the game: given back below
            log.warning("match %s attempt %s interrupted by an outage: %s", pk, attempts[pk], exc)
            interrupted.append(pk)
            outcome[pk] = "interrupted"
            continue
        except Exception as exc:  # any failure of the game or a bot: retried, then failed
            log.exception("match %s attempt %s failed", pk, attempts[pk])
            reason = f"{type(exc).__name__}: {exc}"
            retrying(partial(release_after_error, pk, attempts[pk], reason), until=until, what=f"releasing match {pk}")
            outcome[pk] = "error"
            continue
        batch.append(Finished(match, attempts[pk], seats[pk], played))
    return _settle(match_id, attempts, batch, interrupted, outcome, until)


def run_deal(match_id: int) -> str:
    """The tables of match_id's duplicate deal: claimed together, played side by side, committed together.

    Every table plays on a thread of its own, held in lockstep (botclient.lockstep): no seat at
    any table is asked about pizza k before every table of the deal has reached it, so a bot that
    sits at several tables of the deal, and remembers, learns nothing another table has not shown.
    Outages are ridden out as by `run_matches`.
    """
    until = time.monotonic() + MATCH_LEASE.lease_seconds() * _RETRY_SHARE
    claimed = retrying(lambda: claim_group(match_id), until=until, what=f"claiming the deal of match {match_id}")
    return _play_or_give_back(match_id, claimed, until, _play_deal)


def _play_or_give_back(
    match_id: int, claimed: list[tuple[int, int]], until: float, play: Callable[[int, dict[int, int], float], str]
) -> str:
    """Play the claims; if an outage outlasts the retries, give back every claim not committed."""
    if not claimed:
        return "not claimed"
    attempts = dict(claimed)
    try:
        return play(match_id, attempts, until)
    except OUTAGES:
        _give_back_after_outage(match_id, attempts, until + MATCH_LEASE.lease_seconds() * _GIVE_BACK_SHARE)
        raise


def _play_deal(match_id: int, attempts: dict[int, int], until: float) -> str:
    matches, seats = retrying(lambda: _read(list(attempts)), until=until, what="reading claimed matches")
    order = sorted(attempts)
    # The seats' bots are made here, where the database is at hand; the threads only play.
    bots = {pk: runner.seat_bots([seat.player for seat in seats[pk]], matches[pk].seed, match_id=pk) for pk in order}
    lockstep = Lockstep(len(order))
    games: dict[int, runner.PlayedGame | Exception] = {}

    def play_table(table: int, pk: int) -> None:
        match = matches[pk]
        try:
            games[pk] = runner.play(
                match.game,
                [seat.player for seat in seats[pk]],
                match.seed,
                match.options,
                move_delay=settings.ARENA_BOT_MOVE_DELAY_SECONDS,
                match_id=pk,
                pace=lockstep.pacer(table),
                bots=bots[pk],
            )
        except Exception as exc:  # the failure of one table is that table's (below)
            games[pk] = exc
        finally:
            lockstep.done(table)
            # The thread's own database connection, if its bots opened one: a thread's connection is
            # never reused after it ends, so it would stay open (docs/deploy.md, "Database connections").
            connection.close()

    threads = [
        threading.Thread(target=play_table, args=(table, pk), name=f"deal-table-{pk}", daemon=True)
        for table, pk in enumerate(order)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    outcome: dict[int, str] = {}
    batch: list[Finished] = []
    interrupted: list[int] = []
    for pk in order:
        game = games[pk]
        if isinstance(game, OUTAGES):
            log.warning("match %s attempt %s interrupted by an outage: %s", pk, attempts[pk], game)
            interrupted.append(pk)
            outcome[pk] = "interrupted"
        elif isinstance(game, Exception):
            log.error("match %s attempt %s failed", pk, attempts[pk], exc_info=game)
            reason = f"{type(game).__name__}: {game}"
            retrying(partial(release_after_error, pk, attempts[pk], reason), until=until, what=f"releasing match {pk}")
            outcome[pk] = "error"
        else:
            batch.append(Finished(matches[pk], attempts[pk], seats[pk], game))
    return _settle(match_id, attempts, batch, interrupted, outcome, until)


def _settle(
    match_id: int,
    attempts: dict[int, int],
    batch: list[Finished],
    interrupted: list[int],
    outcome: dict[int, str],
    until: float,
) -> str:
    """Give back the games an outage interrupted, commit the played ones; what became of match_id."""
    if interrupted:
        back = [(pk, attempts[pk]) for pk in interrupted]
        retrying(lambda: give_back(back, resend={match_id}), until=until, what="giving back interrupted matches")
    committed = retrying(lambda: _commit_or_find(batch), until=until, what="committing played matches")
    for item in batch:
        outcome[item.match.pk] = "finished" if item.match.pk in committed else "lost lease"
    return outcome.get(match_id, "not claimed")


def _read(ids: list[int]) -> tuple[dict[int, Match], dict[int, list[MatchSeat]]]:
    matches = Match.objects.in_bulk(ids)
    seats: dict[int, list[MatchSeat]] = {}
    for seat in MatchSeat.objects.filter(match_id__in=ids).select_related("player").order_by("seat"):
        seats.setdefault(seat.match_id, []).append(seat)
    return matches, seats


def _commit_or_find(batch: list[Finished]) -> set[int]:
    """Commit the batch; after a retry, also the matches an earlier try committed before its connection broke."""
    committed = commit_results(batch)
    missing = [item for item in batch if item.match.pk not in committed]
    if missing:
        rows = Match.objects.filter(pk__in=[item.match.pk for item in missing], status=Match.Status.FINISHED)
        finished = dict(rows.values_list("pk", "attempt"))
        committed |= {item.match.pk for item in missing if finished.get(item.match.pk) == item.attempt}
    return committed


def _give_back_after_outage(match_id: int, attempts: dict[int, int], until: float) -> None:
    """The outage outlasted the retries: give back every claim still held, once the database answers.

    Fenced by the attempt, so a match committed before the connection broke stays finished, and one
    already taken over (its lease ran out) is left to its new holder.
    """
    claims = sorted(attempts.items())
    try:
        again = retrying(
            lambda: give_back(claims, resend={match_id}), until=until, what="giving back matches after an outage"
        )
    except OUTAGES:
        log.error("could not give back matches %s: their leases will bring them back", [pk for pk, _ in claims])
        return
    log.warning("gave back matches %s after an outage; sent again: %s", [pk for pk, _ in claims], again)
