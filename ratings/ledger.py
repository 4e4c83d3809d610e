"""Applying a rated match to the ratings: rows locked in player order, one ledger row per seat."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import timezone

from arena.models import Match, Player
from ratings.elo import INITIAL_RATING, new_ratings
from ratings.models import Rating, RatingChange


@dataclass(frozen=True)
class SeatChange:
    player_id: int
    before: float
    after: float


def rate_match(
    match: Match,
    players: Sequence[Player],
    totals: Sequence[float],
    forfeited: Sequence[bool],
) -> list[SeatChange]:
    """Must run inside the transaction that commits the match result.

    Rating rows are created if missing, then locked in ascending player id, the same order for
    every match, so concurrent matches sharing players queue up instead of deadlocking.
    """
    by_id = sorted(players, key=lambda player: player.id)
    Rating.objects.bulk_create(
        [Rating(player=p, game=match.game, kind=p.kind, rating=INITIAL_RATING) for p in by_id],
        ignore_conflicts=True,
    )
    locked = {
        rating.player_id: rating
        for rating in Rating.objects.select_for_update()
        .filter(game=match.game, player_id__in=[p.id for p in by_id])
        .order_by("player_id")
    }
    rows = [locked[player.id] for player in players]
    after = new_ratings([row.rating for row in rows], list(totals), [row.games for row in rows], list(forfeited))
    now = timezone.now()
    changes = []
    ledger = []
    for row, rating_after in zip(rows, after, strict=True):
        changes.append(SeatChange(row.player_id, row.rating, rating_after))
        ledger.append(
            RatingChange(
                match=match,
                player_id=row.player_id,
                game=match.game,
                before=row.rating,
                after=rating_after,
                games_before=row.games,
            )
        )
        row.rating = rating_after
        row.games += 1
        row.updated_at = now
    # Unique (match, player) makes a second rating of the same match fail as a whole.
    RatingChange.objects.bulk_create(ledger)
    Rating.objects.bulk_update(rows, ["rating", "games", "updated_at"])
    return changes
