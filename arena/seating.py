"""Fair seats: the seat order of a table, drawn so that each player's seats are balanced over its games.

The seat decides who is chef when (at three players the first seat cuts pizzas 1 and 4), so a player
always seated first would carry that seat's edge or handicap into every rating. The tables the
service forms (the arena's pools for bots and people, tournaments) take their order from
`balanced_order`: of all the orders of the table, the one after which the players' seat counts at
tables of that width are the most even (the most unbalanced player first, then the table's total),
ties drawn by a seeded random generator. Validation games turn the bot's seat with each version
(submissions/actions.py); comparisons play each version in every seat of every deal
(games/part_du_chef/comparison.py).

A seat that a player has taken more often than its share costs; the cost is weighed by the player's
games, so a newcomer's few games weigh more than a house bot's thousands: a lone bot facing the
house ladder sits in every seat alike, and the ladder's counts even out over the many bots it meets.
`seat_summary` shows the result: a player's games and mean placing per seat.

>>> tally = SeatTally()
>>> rng = random.Random(7)
>>> orders = [balanced_order(["lone", "a", "b"], tally, rng) for _ in range(6)]
>>> sorted(order.index("lone") for order in orders)
[0, 0, 1, 1, 2, 2]
>>> tally.counts("lone", 3)
[2, 2, 2]
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Collection, Hashable, Iterable, Sequence
from typing import Any, TypeVar

from django.db.models import Avg, Count, OuterRef, Subquery

from arena.models import Match, MatchSeat

K = TypeVar("K", bound=Hashable)

# Costs equal to this many digits are a tie (float sums of the same terms in another order).
_DIGITS = 9


class SeatTally:
    """How often each player sat in each seat, per table width."""

    def __init__(self) -> None:
        self._counts: dict[tuple[Hashable, int], list[int]] = {}

    def counts(self, player: Hashable, width: int) -> list[int]:
        return list(self._counts.get((player, width), [0] * width))

    def add(self, order: Sequence[Hashable]) -> None:
        """Count a game played in this seat order."""
        for seat, player in enumerate(order):
            self.add_seat(player, seat, len(order))

    def add_seat(self, player: Hashable, seat: int, width: int, games: int = 1) -> None:
        self._counts.setdefault((player, width), [0] * width)[seat] += games

    def of(self, players: Iterable[Hashable], width: int) -> SeatTally:
        """A copy holding these players' counts at tables of `width` (to try seatings on)."""
        copy = SeatTally()
        for player in players:
            if (player, width) in self._counts:
                copy._counts[(player, width)] = list(self._counts[(player, width)])
        return copy

    def cost(self, player: Hashable, seat: int, width: int) -> float:
        """How much taking `seat` once more unbalances the player: its excess over an even share,
        relative to its games (so that a long record moves less than a short one)."""
        counts = self._counts.get((player, width))
        if counts is None:
            return 0.0
        games = sum(counts)
        return (counts[seat] - games / width) / (games + width)


def balanced_order(players: Sequence[K], tally: SeatTally, rng: random.Random, *, deals: int = 1) -> list[K]:
    """The seat order for these players that keeps their seats most even, counted in `tally` at once.

    The order chosen makes the worst-placed player's seat the least unbalancing, then the table's
    total. With `deals` > 1 the table plays that many games, the order turned by one place per game
    (a tournament table's deals): the order chosen is the one whose rotations balance best. Ties
    (a table of newcomers) are drawn with `rng`, so no player is favoured by its id or its entry.
    """
    best: list[tuple[K, ...]] = []
    best_cost: tuple[float, float] = (0.0, 0.0)
    for order in itertools.permutations(players):
        cost = _cost_of(order, tally, deals)
        if not best or cost < best_cost:
            best, best_cost = [order], cost
        elif cost == best_cost:
            best.append(order)
    chosen = list(rng.choice(best))
    for deal in range(deals):
        tally.add(rotated(chosen, deal))
    return chosen


def rotated(order: Sequence[K], places: int) -> list[K]:
    """The order turned by `places`: the player in seat `places` sits first."""
    shift = places % len(order)
    return [*order[shift:], *order[:shift]]


def _cost_of(order: Sequence[Hashable], tally: SeatTally, deals: int) -> tuple[float, float]:
    """(the largest single cost, the total), rounded so that sums in another order still tie."""
    width = len(order)
    trial = tally.of(order, width) if deals > 1 else tally
    costs: list[float] = []
    for deal in range(deals):
        seating = rotated(order, deal)
        costs.extend(trial.cost(player, seat, width) for seat, player in enumerate(seating))
        if deals > 1:
            trial.add(seating)
    return (round(max(costs), _DIGITS), round(sum(costs), _DIGITS))


def arena_seat_tally(game: str, width: int, players: Collection[int]) -> SeatTally:
    """The seats `players` took at earlier arena tables of `width` players (finished, queued or
    playing; failed matches were not played). One grouped query, at most len(players) x width rows."""
    tally = SeatTally()
    if not players:
        return tally
    rows = (
        MatchSeat.objects.filter(player_id__in=list(players), match__kind=Match.Kind.ARENA, match__game=game)
        .exclude(match__status=Match.Status.FAILED)
        .annotate(width=Subquery(_seats_of_match()))
        .filter(width=width)
        .order_by()
        .values_list("player_id", "seat")
        .annotate(games=Count("id"))
    )
    for player_id, seat, games in rows:
        tally.add_seat(player_id, seat, width, games)
    return tally


def seat_summary(player_id: int) -> list[dict[str, Any]]:
    """Per table size and seat, over the player's rated games: `games` and `mean_placing` (1 is best,
    a forfeit counts last; null where it never sat). Every seat of each table size it played is listed,
    so a seat it never took shows. One grouped query."""
    rows = (
        MatchSeat.objects.filter(
            player_id=player_id, match__status=Match.Status.FINISHED, match__rated=True, rank__isnull=False
        )
        .annotate(width=Subquery(_seats_of_match()))
        .order_by()
        .values_list("width", "seat")
        .annotate(games=Count("id"), mean=Avg("rank"))
    )
    found = {(width, seat): (games, mean) for width, seat, games, mean in rows}
    summary = []
    for width in sorted({width for width, _ in found}):
        for seat in range(width):
            games, mean = found.get((width, seat), (0, None))
            summary.append(
                {
                    "players": width,
                    "seat": seat,
                    "games": games,
                    "mean_placing": None if mean is None else round(float(mean), 2),
                }
            )
    return summary


def _seats_of_match() -> Any:
    """The number of seats of the outer row's match (a correlated subquery)."""
    return (
        MatchSeat.objects.filter(match_id=OuterRef("match_id"))
        .order_by()
        .values("match_id")
        .annotate(n=Count("id"))
        .values("n")
    )
