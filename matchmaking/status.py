"""Why an arena entry waits and about how long: the matchmaker's own decision (matchmaking.pool),
run for the entry's pool as it stands and reported to the bot's owner."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from arena.models import ArenaEntry, Player
from matchmaking.pool import Pool


def explain(entries: Sequence[ArenaEntry], now: datetime) -> dict[int, dict[str, Any]]:
    """Per entry id: `state` (playing, placing, waiting, left), `reason`, `expected_seconds` (or None),
    `match`, `waiting_seconds`. Each pool among the entries is read once."""
    pools: dict[tuple[str, int, bool], Pool] = {}
    answers = {}
    for entry in entries:
        people = entry.player.is_person
        key = (entry.game, entry.table_size, people)
        if key not in pools:
            members = ArenaEntry.objects.filter(active=True, game=entry.game, table_size=entry.table_size)
            members = (
                members.filter(player__kind=Player.Kind.HUMAN)
                if people
                else members.exclude(player__kind=Player.Kind.HUMAN)
            )
            pools[key] = Pool(
                entry.game, entry.table_size, people, list(members.select_related("current_match", "player"))
            )
        answers[entry.id] = pools[key].explain(entry, now)
    return answers
