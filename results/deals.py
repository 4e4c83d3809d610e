"""The tables of a duplicate deal: claimed together, played side by side in lockstep, committed together."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings

from arena import runner
from arena.claims import claim_group
from arena.models import Match, MatchSeat
from botclient import ServerBusy
from botclient.lockstep import run_tables
from common.database import close_this_threads_connection
from common.outages import retrying
from games.part_du_chef.seating import Pace
from results.outcomes import Outcomes, play_deadline, play_or_give_back, retry_until

log = logging.getLogger(__name__)


def run_deal(match_id: int) -> str:
    """The tables of match_id's duplicate deal: claimed together, played side by side, committed together.

    Every table plays on a thread of its own, held in lockstep (botclient.lockstep): no seat at
    any table is asked about pizza k before every table of the deal has reached it, so a bot that
    sits at several tables of the deal, and remembers, learns nothing another table has not shown.
    Outages are ridden out as by `results.batches.run_matches`.
    """
    until = retry_until()
    claimed = retrying(lambda: claim_group(match_id), until=until, what=f"claiming the deal of match {match_id}")
    return play_or_give_back(match_id, claimed, until, _play_deal)


def _play_deal(match_id: int | None, attempts: dict[int, int], until: float) -> str:
    matches, seats = retrying(lambda: _read(list(attempts)), until=until, what="reading claimed matches")
    order = sorted(attempts)
    # The seats' bots are made here, where the database is at hand; the threads only play.
    bots = {pk: runner.seat_bots([seat.player for seat in seats[pk]], matches[pk].seed, match_id=pk) for pk in order}
    deadline = play_deadline(until)

    def table(pk: int) -> Callable[[Pace], runner.PlayedGame]:
        match = matches[pk]
        return lambda pace: runner.play(
            match.game,
            [seat.player for seat in seats[pk]],
            match.seed,
            match.options,
            move_delay=settings.ARENA_BOT_MOVE_DELAY_SECONDS,
            match_id=pk,
            pace=pace,
            bots=bots[pk],
            deadline=deadline,
            # Stored without what follows from its seed and actions (arena.packed): not written at all.
            derived=False,
        )

    # Each table's thread closes its own database connection as it ends (docs/deploy.md, "Database
    # connections"). The failure of one table is that table's (below).
    played = run_tables([table(pk) for pk in order], name=f"deal-{match_id}", after_table=close_this_threads_connection)
    games: dict[int, runner.PlayedGame | Exception] = {}
    for pk, game in zip(order, played, strict=True):
        if isinstance(game, BaseException) and not isinstance(game, Exception):
            raise game  # an interpreter's exit, not a table's failure
        games[pk] = game
    outcomes = Outcomes(attempts, until)
    if any(isinstance(game, ServerBusy) for game in games.values()):
        # A table the server could not start: the whole deal is given back and played again together,
        # so that no table of it is ever played apart from the others (its seats learn nothing early).
        log.warning("the deal of match %s is given back, the server is busy", match_id)
        outcomes.server_busy(order)
        return outcomes.settle(match_id)
    for pk in order:
        outcomes.add(matches[pk], seats[pk], games[pk])
    return outcomes.settle(match_id)


def _read(ids: list[int]) -> tuple[dict[int, Match], dict[int, list[MatchSeat]]]:
    matches = Match.objects.in_bulk(ids)
    seats: dict[int, list[MatchSeat]] = {}
    for seat in MatchSeat.objects.filter(match_id__in=ids).select_related("player").order_by("seat"):
        seats.setdefault(seat.match_id, []).append(seat)
    return matches, seats
