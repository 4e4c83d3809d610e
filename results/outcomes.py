"""What became of each match a play task claimed: committed, given back after an outage, or released after an error.

A game is played outside any transaction, then sorted out here once, whether it was played in a
batch (`results.batches`) or at a table of a duplicate deal (`results.deals`): a game an outage of
the database or the broker interrupted is given back with the attempt it had (no fault of the
match), a game that failed is released (retried, or failed after its last attempt), and the played
ones are committed together (`results.commit`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from celery.exceptions import SoftTimeLimitExceeded

from arena import runner
from arena.claims import MATCH_LEASE, give_back, release_after_error
from arena.models import Match, MatchSeat
from botclient import ServerBusy
from common.outages import OUTAGES, retrying
from results.commit import Finished, commit_or_find

log = logging.getLogger(__name__)

# Shares of the lease: how long a play task retries through an outage, and then tries to give back its claims.
RETRY_SHARE = 0.7
GIVE_BACK_SHARE = 0.08
# The share of the lease the games themselves may take: built-in bots think within it (their deadline),
# so that the commit still comes well before the task's soft time limit (0.8 of the lease).
PLAY_SHARE = 0.5
# A match given back because the server was too slow to start a bot's sandbox is sent again this much later.
BUSY_RETRY_SECONDS = 2.0


def retry_until() -> float:
    """Retries stop well before the claims' leases run out (and before the task's soft time limit)."""
    return time.monotonic() + MATCH_LEASE.lease_seconds() * RETRY_SHARE


def play_deadline(until: float) -> float:
    """When the games of a task must be over (time.monotonic()), from its retries' end (`until`)."""
    return until - MATCH_LEASE.lease_seconds() * (RETRY_SHARE - PLAY_SHARE)


@dataclass
class Outcomes:
    """The games of one play task's claims, sorted out as they end (`add`), then settled at once (`settle`)."""

    attempts: dict[int, int]
    until: float
    played: list[Finished] = field(default_factory=list)
    interrupted: list[int] = field(default_factory=list)
    # Given back because the server was too slow to start a bot (`botclient.ServerBusy`): sent again a little later.
    busy: list[int] = field(default_factory=list)
    outcome: dict[int, str] = field(default_factory=dict)

    def add(self, match: Match, seats: list[MatchSeat], game: runner.PlayedGame | BaseException) -> None:
        """One claimed match's game: played, interrupted by an outage or the task's time limit, given back
        because the server was busy, or failed."""
        pk, attempt = match.pk, self.attempts[match.pk]
        if isinstance(game, OUTAGES):  # the database or the broker, not the game: given back in `settle`
            log.warning("match %s attempt %s interrupted by an outage: %s", pk, attempt, game)
            self.interrupted.append(pk)
            self.outcome[pk] = "interrupted"
        elif isinstance(game, SoftTimeLimitExceeded):  # the server's time ran out, not a bot's
            log.warning("match %s attempt %s interrupted by the task's time limit", pk, attempt)
            self.interrupted.append(pk)
            self.outcome[pk] = "interrupted"
        elif isinstance(game, ServerBusy):  # too slow to start a bot's sandbox: given back, played later
            log.warning("match %s attempt %s given back, the server is busy: %s", pk, attempt, game)
            self.busy.append(pk)
            self.outcome[pk] = "server busy"
        elif isinstance(game, BaseException):  # any failure of the game or a bot: retried, then failed
            log.error("match %s attempt %s failed", pk, attempt, exc_info=game)
            reason = f"{type(game).__name__}: {game}"
            retrying(partial(release_after_error, pk, attempt, reason), until=self.until, what=f"releasing match {pk}")
            self.outcome[pk] = "error"
        else:
            self.played.append(Finished(match, attempt, seats, game))

    def server_busy(self, pks: list[int]) -> None:
        """Every one of these games is given back unplayed: the server could not start one of them."""
        for pk in pks:
            self.busy.append(pk)
            self.outcome[pk] = "server busy"

    def settle(self, match_id: int | None) -> str:
        """Give back the games an outage interrupted, and those the server was too busy to start (sent again
        a little later), commit the played ones; what became of match_id."""
        resend = {match_id} if match_id is not None else set()
        if self.interrupted:
            back = [(pk, self.attempts[pk]) for pk in self.interrupted]
            retrying(lambda: give_back(back, resend=resend), until=self.until, what="giving back interrupted matches")
        if self.busy:
            later = [(pk, self.attempts[pk]) for pk in self.busy]
            retrying(
                lambda: give_back(later, resend=resend, after_s=BUSY_RETRY_SECONDS),
                until=self.until,
                what="giving back matches the server was too busy to start",
            )
        committed = retrying(lambda: commit_or_find(self.played), until=self.until, what="committing played matches")
        for item in self.played:
            self.outcome[item.match.pk] = "finished" if item.match.pk in committed else "lost lease"
        if match_id is None:
            counts: dict[str, int] = {}
            for outcome in self.outcome.values():
                counts[outcome] = counts.get(outcome, 0) + 1
            return ", ".join(f"{outcome} {count}" for outcome, count in sorted(counts.items())) or "not claimed"
        return self.outcome.get(match_id, "not claimed")


def play_or_give_back(
    match_id: int | None,
    claimed: list[tuple[int, int]],
    until: float,
    play: Callable[[int | None, dict[int, int], float], str],
) -> str:
    """Play the claims; if an outage outlasts the retries, give back every claim not committed."""
    if not claimed:
        return "not claimed"
    attempts = dict(claimed)
    try:
        return play(match_id, attempts, until)
    except OUTAGES:
        _give_back_after_outage(match_id, attempts, until + MATCH_LEASE.lease_seconds() * GIVE_BACK_SHARE)
        raise
    except SoftTimeLimitExceeded:
        # The task's time ran out (a machine too slow for its games): nobody's fault, no attempt used up.
        until = time.monotonic() + MATCH_LEASE.lease_seconds() * GIVE_BACK_SHARE
        _give_back_after_outage(match_id, attempts, until, why="the task's soft time limit")
        return "interrupted"


def _give_back_after_outage(
    match_id: int | None, attempts: dict[int, int], until: float, why: str = "an outage"
) -> None:
    """The outage outlasted the retries: give back every claim still held, once the database answers.

    Fenced by the attempt, so a match committed before the connection broke stays finished, and one
    already taken over (its lease ran out) is left to its new holder.
    """
    claims = sorted(attempts.items())
    resend = {match_id} if match_id is not None else set()
    try:
        again = retrying(
            lambda: give_back(claims, resend=resend), until=until, what="giving back matches after an outage"
        )
    except OUTAGES:
        log.error("could not give back matches %s: their leases will bring them back", [pk for pk, _ in claims])
        return
    log.warning("gave back matches %s after %s; sent again: %s", [pk for pk, _ in claims], why, again)
