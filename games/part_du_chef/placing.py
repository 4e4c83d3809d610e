"""The one definition of a seat's final placing, shared by the arena (ratings, API, profiles, standings)
and the local command line (`part-du-chef simulate` records, `compare`).

The game's own ranks (part-du-chef/1 `ranks`) compare totals only. A seat that forfeited (a bot that
crashed, timed out or answered wrongly; a person who left) is placed below every seat that did not,
whatever its total (the stand-in may have played it to the best total), exactly as the arena's
rating counts it: placing 1 is a win. Records carry it in their `arena` field (docs/record-format.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# The record's extra field with the arena's verdict; the game's own fields stay untouched.
RECORD_FIELD = "arena"
PLAYER = "player"
STAND_IN = "stand-in"


def placings(totals: Sequence[float], forfeited: Sequence[bool]) -> tuple[int, ...]:
    """1 + the number of seats placed strictly ahead; a forfeiter is behind every non-forfeiter.

    >>> placings([50, 60, 40], [False, True, False])
    (1, 3, 2)
    >>> placings([30, 30, 10], [False, False, False])
    (1, 1, 3)
    """
    if len(totals) != len(forfeited):
        raise ValueError(f"{len(totals)} totals for {len(forfeited)} forfeit flags")
    return tuple(
        1
        + sum(
            1
            for other_total, other_out in zip(totals, forfeited, strict=True)
            if (out and not other_out) or (other_out == out and other_total > total)
        )
        for total, out in zip(totals, forfeited, strict=True)
    )


def record_verdict(
    totals: Sequence[float], forfeited: Sequence[bool], stand_in: Sequence[bool] | None, actions: int
) -> dict[str, Any]:
    """The record's `arena` field: placings, forfeiting seats, and who decided each action."""
    flags = list(stand_in) if stand_in is not None else [False] * actions
    if len(flags) != actions:
        raise ValueError(f"{len(flags)} stand-in flags for {actions} actions")
    return {
        "placings": list(placings(totals, forfeited)),
        "forfeited": [seat for seat, out in enumerate(forfeited) if out],
        "decided_by": [STAND_IN if flag else PLAYER for flag in flags],
    }
