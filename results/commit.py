"""Committing played matches: the results, the seats' placings and the ratings, in one transaction.

A batch's match rows are locked in id order and only those still held by the attempt that played
them are kept; `ratings.ledger.rate` then moves the ratings (it writes the ledger and rating rows
and returns the changes), and the matches and seats are written with those changes in the same
round trip. `match_committed` (each match) and `matches_committed` (the batch) tell the features
above, in the same transaction. Tables with people commit through `commit_result` too.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from arena import runner
from arena.models import Match, MatchSeat
from arena.packed import EngineRecord
from arena.rows import Statement, update_statement
from games.part_du_chef.placing import RECORD_FIELD, placings, record_verdict
from ratings.ledger import Changes, GameResult, rate
from results.signals import match_committed, matches_committed

log = logging.getLogger(__name__)

_TICK = timedelta(microseconds=1)

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


def committed_here(match_id: int) -> bool:
    """This process committed the match lately: it is finished for good."""
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
    locks the rating rows of the whole batch at once, writes them and returns the changes), the
    seats get their placings and rating changes, and `match_committed` tells the features above, in
    batch order. If the batch cannot commit as a whole (a match already rated), each match is
    committed alone so that the others still count.
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


def commit_or_find(batch: Sequence[Finished]) -> set[int]:
    """Commit the batch; after a retry, also the matches an earlier try committed before its connection broke."""
    committed = commit_results(batch)
    missing = [item for item in batch if item.match.pk not in committed]
    if missing:
        rows = Match.objects.filter(pk__in=[item.match.pk for item in missing], status=Match.Status.FINISHED)
        finished = dict(rows.values_list("pk", "attempt"))
        committed |= {item.match.pk for item in missing if finished.get(item.match.pk) == item.attempt}
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
        results = [
            GameResult(
                match=item.match,
                players=[seat.player for seat in item.seats],
                totals=item.played.totals,
                forfeited=item.played.forfeited,
            )
            for item in ours
            if item.match.rated
        ]
        # The ratings' writes (ledger rows first: a second rating fails there), then the matches and
        # seats: one round trip for all of them.
        rate(results, along=partial(_results_written, ours))
        for item in ours:
            # The features above (tournaments, submitted bots) write in this same transaction.
            match_committed.send(sender=Match, match=item.match, seats=item.seats, played=item.played)
        matches_committed.send(sender=Match, matches=[item.match for item in ours])
        committed = {item.match.pk for item in ours}
        transaction.on_commit(partial(_remember, committed))
    return committed


def _results_written(ours: Sequence[Finished], changes: Changes) -> list[Statement]:
    """The matches (finished, the record with its verdict) and seats (placings, rating changes) as written."""
    # Taken once the rating rows are locked, strictly increasing through the batch: per player,
    # finishing times follow the order in which the ratings moved.
    finished_at = timezone.now() - _TICK
    for item in ours:
        finished_at = max(timezone.now(), finished_at + _TICK)
        match, played = item.match, item.played
        placed = placings(played.totals, played.forfeited)
        # Written by the engine from the game it played: kept without the fields that follow from it.
        record = EngineRecord(played.record)
        record[RECORD_FIELD] = record_verdict(
            played.totals, played.forfeited, played.stand_in, len(record.get("actions") or [])
        )
        reasons = forfeit_reasons(played)
        for index, seat in enumerate(item.seats):
            seat.score = played.totals[index]
            seat.rank = placed[index]
            seat.forfeited = played.forfeited[index]
            seat.forfeit_reason = reasons[index] if seat.forfeited else ""
            change = changes.get((match.pk, seat.player_id))
            if change is not None:
                seat.rating_before, seat.rating_after = change.before, change.after
        match.status = Match.Status.FINISHED
        match.attempt = item.attempt
        match.record = record
        match.lease_expires_at = None
        match.error = ""
        match.finished_at = finished_at
    return [
        update_statement(
            Match, [item.match for item in ours], ["status", "record", "lease_expires_at", "error", "finished_at"]
        ),
        update_statement(
            MatchSeat,
            [seat for item in ours for seat in item.seats],
            ["score", "rank", "forfeited", "forfeit_reason", "rating_before", "rating_after"],
        ),
    ]


# A seat's forfeit reason is kept up to this many characters on the match's seat (the owner's seat log
# keeps the bot's whole story).
FORFEIT_REASON_CHARS = 500


def forfeit_reasons(played: runner.PlayedGame) -> list[str]:
    """Per seat, why it forfeited: the game's own reasons, else its seat log's, else "forfeit"."""
    reasons = ["forfeit" if out else "" for out in played.forfeited]
    for log_ in played.seat_logs:
        if log_.forfeit_reason and log_.seat < len(reasons):
            reasons[log_.seat] = log_.forfeit_reason
    for seat, reason in enumerate(played.forfeit_reasons[: len(reasons)]):
        if reason:
            reasons[seat] = reason
    return [reason[:FORFEIT_REASON_CHARS] for reason in reasons]
