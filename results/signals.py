"""What the finisher tells the features above it (tournaments, submitted bots) once a result is written."""

from __future__ import annotations

from django.dispatch import Signal

# Sent inside the transaction that commits a match result (kwargs: match, seats, played), after the
# match, its seats (placings, rating changes) and the ratings are written: what receivers write is
# committed with the result or not at all.
match_committed = Signal()

# Sent once per committed batch, after `match_committed` for each of its matches, in the same transaction
# (kwargs: matches, in batch order): for a receiver that looks the batch up at once, not match by match.
matches_committed = Signal()
