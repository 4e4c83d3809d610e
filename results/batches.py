"""A play task's batch: its own match and other queued built-in bot matches, or a lease of queued work.

`run_matches` (the `arena.play_match` task) claims its match and up to `ARENA_CLAIM_BATCH - 1`
other queued built-in bot matches; `play_queued` (the `arena.play_queued` task, one message for many
matches: `arena.claims.offer_work`) claims up to `ARENA_LEASE_BATCH` queued built-in bot matches and
no match of its own. Either way the claim and the read of the matches, seats and players are one
round trip, the games are played outside any transaction (`arena.runner`), and the played ones are
committed together (`results.commit`), one transaction for the batch.
"""

from __future__ import annotations

import time
from functools import partial

from django.conf import settings

from arena import runner
from arena.claims import MATCH_LEASE, Claimed, claim_and_read, claim_queued, give_back, glance, offer_work
from common.outages import retrying
from results.commit import committed_here
from results.deals import run_deal
from results.outcomes import Outcomes, play_deadline, play_or_give_back, retry_until

# Seconds per game in this process's last batch: a lease takes no more matches than its budget
# (ARENA_CLAIM_BATCH_SECONDS) is likely to play, so slow bots' matches are not claimed only to be given back.
_pace: dict[str, float] = {}


def _budget_seconds() -> float:
    """How long a batch starts new games: its results wait for its last one."""
    return min(float(settings.ARENA_CLAIM_BATCH_SECONDS), MATCH_LEASE.lease_seconds() / 4)


def lease_size(limit: int) -> int:
    """Up to `limit`, as many matches as the budget plays at this process's last pace (one more: the
    budget is checked before each game)."""
    per_game = _pace.get("game", 0.0)
    if per_game <= 0:
        return limit
    return max(1, min(limit, int(_budget_seconds() / per_game) + 1))


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
    game that fails, or a lease that runs out (the worker died), does. Neither does a server too slow
    to start a bot (`botclient.ServerBusy`, past ARENA_SANDBOX_START_MS) nor a batch that ran into the
    task's soft time limit: those games are given back unplayed, nobody charged, and played later.
    Built-in bots think within a deadline (`results.outcomes.PLAY_SHARE` of the lease), so a batch ends in time.
    """
    if committed_here(match_id):
        return "not claimed"
    if extra is None:
        extra = int(settings.ARENA_CLAIM_BATCH) - 1
    until = retry_until()
    # Most tasks of a batch find their match played already: one plain read says so, and they stop there.
    # One that finds it held by another batch still claims (marking its message used up) and takes
    # other queued matches with it, so both workers play.
    seen = retrying(lambda: glance(match_id), until=until, what=f"reading match {match_id}")
    if seen is None or (seen.over and not seen.grouped):
        return "not claimed"
    if seen.grouped:
        return run_deal(match_id)
    claimed = retrying(lambda: claim_and_read(match_id, extra), until=until, what=f"claiming match {match_id}")
    return play_or_give_back(match_id, claimed.claims, until, partial(_play_claimed, claimed))


def play_queued(limit: int | None = None) -> str:
    """Lease up to `limit` (ARENA_LEASE_BATCH) queued built-in bot matches, play them, commit them at once.

    The matches have no message of their own (`arena.claims.offer_work` sent this one for them all):
    a lease that takes a full batch offers the rest of the queue to the next worker at once, before
    playing, so every worker gets a batch while the queue lasts, and the last lease (not full) ends
    the chain; a match queued after it offers work again. Outages are ridden out as by `run_matches`.
    Returns how many of the leased matches ended which way.
    """
    size = lease_size(int(settings.ARENA_LEASE_BATCH) if limit is None else limit)
    until = retry_until()
    claimed = retrying(lambda: claim_queued(size), until=until, what="leasing queued matches")
    if len(claimed.claims) >= size:
        offer_work()
    return play_or_give_back(None, claimed.claims, until, partial(_play_claimed, claimed))


def _play_claimed(claimed: Claimed, match_id: int | None, attempts: dict[int, int], until: float) -> str:
    matches, seats = claimed.matches, claimed.seats
    deadline = play_deadline(until)
    # A batch's results wait for its last game: they are held back at most about this long.
    started = time.monotonic()
    budget = started + _budget_seconds()
    # The task's own match first: it is the one its message asked for.
    order = sorted(attempts, key=lambda pk: (pk != match_id, pk))
    outcomes = Outcomes(attempts, until)
    played = 0
    for index, pk in enumerate(order):
        if index > 0 and time.monotonic() > budget:
            later = [(pk, attempts[pk]) for pk in order[index:]]
            retrying(partial(give_back, later), until=until, what="giving back unplayed matches")
            break
        match = matches[pk]
        game: runner.PlayedGame | BaseException
        try:
            game = runner.play(
                match.game,
                [seat.player for seat in seats[pk]],
                match.seed,
                match.options,
                move_delay=settings.ARENA_BOT_MOVE_DELAY_SECONDS,
                match_id=pk,
                deadline=deadline,
                # Stored without what follows from its seed and actions (arena.packed): not written at all.
                derived=False,
            )
        except Exception as exc:  # an outage or a failure of the game or a bot: sorted out by `Outcomes.add`
            game = exc
        played += 1
        outcomes.add(match, seats[pk], game)
    if played:
        _pace["game"] = (time.monotonic() - started) / played
    return outcomes.settle(match_id)
