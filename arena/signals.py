"""Signals other apps hook into without the match core knowing them."""

from __future__ import annotations

from django.dispatch import Signal

# Sent inside the transaction that commits a match result (kwargs: match, seats, played), so what
# receivers write is committed with the result or not at all.
match_committed = Signal()
