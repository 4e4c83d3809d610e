"""Settle the house ladder: rated games between near rungs until every rung is sure and in its place.

A placing bot meets the rungs rated nearest it (matchmaking.house), which are worth that only once
settled. In a fresh database, or after rungs were added to the ladder, they are unrated and would
settle only as the arena happens to seat them; this plays them now. A rung is settled when its
current deviation is at most --until-deviation and its rating lies between those of the rungs below
and above it: the ladder is ordered by strength, and a cold start (every rung at 1500, each early
game a large move against opponents as unsure) can leave ratings sure but out of order, which a
deviation alone does not show. Each round, every unsettled rung plays one two-player ranked game
against each rung one and two steps from it in ladder order: games near even odds, which tell most,
and a bounded cost, since the slow engines (search) meet only their near rungs. The first seat goes
to whichever of the two has had it less often against the other.

The games go through the match core (arena.matches.create_match, results.batches.run_match), so each
result rates the players once and is in the ledger like any other. A settled ladder plays nothing:
the command may be run after every deploy.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from arena.errors import RequestError
from arena.matches import check_count, create_match, resolve_game
from arena.models import Match, MatchSeat, Player
from matchmaking.house import ladder, ladder_players
from ratings.elo import INITIAL_DEVIATION, INITIAL_RATING, MIN_DEVIATION
from ratings.models import Rating, current_deviation
from ratings.pinning import SETTLED_DEVIATION
from results.batches import run_match

GAME = "part-du-chef"
ROUNDS = 40


class Command(BaseCommand):
    help = (
        "Play rated games between neighbouring rungs of the house ladder until each rung's deviation is at "
        f"most --until-deviation (default {SETTLED_DEVIATION:.0f}) or --rounds rounds were played."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", default=GAME, help=f"the game whose ratings to settle (default {GAME})")
        parser.add_argument(
            "--rounds", type=int, default=ROUNDS, help=f"play at most this many rounds (default {ROUNDS})"
        )
        parser.add_argument(
            "--until-deviation",
            type=float,
            default=SETTLED_DEVIATION,
            help=f"a rung is settled at this deviation or below (default {SETTLED_DEVIATION:.0f})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        game, rounds, until = options["game"], options["rounds"], options["until_deviation"]
        try:
            check_count(resolve_game(game), 2)
        except RequestError as refused:
            raise CommandError(f"--game {game}: {refused}") from None
        if rounds < 0:
            raise CommandError("--rounds must be 0 or more")
        if until < MIN_DEVIATION:
            raise CommandError(f"--until-deviation must be at least {MIN_DEVIATION:.0f}: no deviation goes lower")
        engines = ladder()
        if not engines:
            raise CommandError("the house ladder (ARENA_HOUSE_LADDER) is empty: there is nothing to settle")
        rungs = ladder_players()
        missing = [name for name in engines if name not in {rung.name for rung in rungs}]
        if missing:
            self.stderr.write(
                f"no house player for {', '.join(missing)}: left out (manage.py ensure_builtin_bots creates "
                "the built-in bots' players)"
            )
        if len(rungs) < 2:
            raise CommandError(
                f"the house ladder has {len(rungs)} rung with its player ({', '.join(engines)}): "
                "settling takes two at least"
            )

        started = time.monotonic()
        played = 0
        for number in range(1, rounds + 2):
            state = standing(game, rungs)
            misplaced = out_of_order(rungs, state)
            unsettled = [i for i, rung in enumerate(rungs) if state[rung.id][1] > until or i in misplaced]
            if not unsettled:
                self.stdout.write(
                    f"the house ladder is settled (every deviation at most {until:.0f}, the ratings in ladder order)"
                    f" after {played} games "
                    f"({time.monotonic() - started:.0f} s): {describe(rungs, state)}"
                )
                return
            if number > rounds:
                break
            # Each unsettled rung with the rungs one and two steps away; a pair plays once a round.
            pairs = sorted(
                {(min(i, j), max(i, j)) for i in unsettled for j in (i - 2, i - 1, i + 1, i + 2) if 0 <= j < len(rungs)}
            )
            self.stdout.write(
                f"round {number}/{rounds}: {len(pairs)} games, unsettled "
                + describe([rungs[i] for i in unsettled], state)
            )
            for low, high in pairs:
                seats = first_seat_by_turns(game, rungs[low], rungs[high])
                match = create_match(game=game, kind=Match.Kind.RANKED, player_ids=seats, dispatch=False)
                outcome = run_match(match.id)
                if outcome != "finished":
                    raise CommandError(
                        f"match {match.id} ({rungs[low].name} against {rungs[high].name}) was not played: {outcome}"
                    )
                played += 1
        self.stderr.write(
            f"stopped at the bound of {rounds} rounds ({played} games, {time.monotonic() - started:.0f} s) "
            f"with rungs still above {until:.0f} or out of ladder order: {describe(rungs, state)}; run the command "
            "again to go on"
        )


def standing(game: str, rungs: list[Player]) -> dict[int, tuple[float, float]]:
    """Each rung's rating and current deviation (grown with its idle days); an unrated rung is new."""
    now = timezone.now()
    found = {rung.id: (INITIAL_RATING, INITIAL_DEVIATION) for rung in rungs}
    rows = Rating.objects.filter(game=game, player_id__in=list(found)).values_list(
        "player_id", "rating", "deviation", "rated_at"
    )
    for player_id, rating, deviation, rated_at in rows:
        found[player_id] = (rating, current_deviation(deviation, rated_at, now))
    return found


def out_of_order(rungs: list[Player], state: dict[int, tuple[float, float]]) -> set[int]:
    """The rungs rated at or above the next rung up, and that rung (indexes in ladder order)."""
    misplaced: set[int] = set()
    for i in range(len(rungs) - 1):
        if state[rungs[i].id][0] >= state[rungs[i + 1].id][0]:
            misplaced |= {i, i + 1}
    return misplaced


def describe(rungs: list[Player], state: dict[int, tuple[float, float]]) -> str:
    return ", ".join(f"{rung.name} {state[rung.id][0]:.0f} ± {state[rung.id][1]:.0f}" for rung in rungs)


def first_seat_by_turns(game: str, low: Player, high: Player) -> list[int]:
    """The pair's seat order: the one that has sat first less often in their ranked games goes first
    (the lower rung on a tie), so the first player's edge is shared across rounds and runs alike."""

    def first(player: Player, other: Player) -> int:
        return MatchSeat.objects.filter(
            seat=0, player=player, match__game=game, match__kind=Match.Kind.RANKED, match__seats__player=other
        ).count()

    if first(high, low) < first(low, high):
        return [high.id, low.id]
    return [low.id, high.id]
