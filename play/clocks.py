"""The clocks a friendly table may be played with: seconds per decision, and an optional bank.

A person's bank is extra time shared by all their decisions: a decision may take longer than the
clock's seconds, and what it takes beyond them comes out of the bank. Ranked tables keep the
documented clock (settings.ARENA_TURN_SECONDS a decision, no bank).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Clock:
    key: str
    seconds: int  # per decision
    bank: int  # seconds of bank per person for the whole game


CLOCKS = (
    Clock("30", 30, 0),
    Clock("60", 60, 0),
    Clock("120", 120, 0),
    Clock("30+180", 30, 180),
    Clock("60+300", 60, 300),
)
DEFAULT = "60"
BY_KEY = {clock.key: clock for clock in CLOCKS}


def choice(raw: object) -> Clock:
    """The clock named by `raw`, the default one for anything else."""
    return BY_KEY.get(raw if isinstance(raw, str) else "", BY_KEY[DEFAULT])
