"""The ratings react to a committed match, inside the transaction that commits its result."""

from __future__ import annotations

from typing import Any

from arena.models import Match, MatchSeat
from ratings.ledger import rate_match


def rate_committed_match(sender: Any, *, match: Match, seats: list[MatchSeat], played: Any, **kwargs: Any) -> None:
    """Move the ratings of a rated match once; a second rating of it fails the whole commit."""
    if not match.rated:
        return
    changes = rate_match(match, [seat.player for seat in seats], played.totals, played.forfeited)
    for seat, change in zip(seats, changes, strict=True):
        seat.rating_before = change.before
        seat.rating_after = change.after
    # The core writes the seats, with these fields, once every receiver ran.
