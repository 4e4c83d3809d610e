"""How often players have met in the arena: one grouped query per pool and tick."""

from __future__ import annotations

from collections.abc import Collection

from django.db.models import Count

from arena.models import Match, MatchSeat
from matchmaking.pairing import Meetings, pair


def count_meetings(players: Collection[int], others: Collection[int]) -> Meetings:
    """Arena games (finished, queued or playing) each of `players` has had with each of `others`.

    One query whatever the pool's size; its answer has at most len(players) x len(others) rows.
    """
    if not players or not others:
        return {}
    rows = (
        MatchSeat.objects.filter(
            player_id__in=list(players),
            match__kind=Match.Kind.ARENA,
            match__seats__player_id__in=list(others),
        )
        .exclude(match__status=Match.Status.FAILED)
        .values_list("player_id", "match__seats__player_id")
        .annotate(games=Count("match_id", distinct=True))
    )
    met: dict[tuple[int, int], int] = {}
    for player_id, other_id, games in rows:
        if player_id == other_id:
            continue  # the seat itself, found through its own match
        met[pair(player_id, other_id)] = max(met.get(pair(player_id, other_id), 0), games)
    return met
