"""Matches whose submitted seats are played by a given version (validation games, tournaments)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from django.db import transaction

from arena.claims import dispatch_match
from arena.matches import create_match
from arena.models import Match, Player
from submissions.models import BotSeat, BotVersion


def create_pinned_match(
    *,
    game: str,
    kind: str,
    seats: Sequence[tuple[Player, BotVersion | None]],
    options: dict[str, Any],
    seed: int,
    created_by: Any = None,
    dispatch: bool = True,
    deal_group: UUID | None = None,
) -> Match:
    """A queued match; each (player, version) seat is played by that version whatever happens later.

    Through the match core's one create path (its checks, the pins checked by the submitted-bot
    seat kind); inside the caller's transaction when there is one; the play task is sent on commit.
    """
    pins = {seat: version for seat, (_, version) in enumerate(seats) if version is not None}
    with transaction.atomic():
        match = create_match(
            game=game,
            kind=kind,
            players=[player for player, _ in seats],
            options=options,
            seed=seed,
            created_by=created_by,
            dispatch=False,
            pins=pins,
            deal_group=deal_group,
        )
        BotSeat.objects.bulk_create(
            [
                BotSeat(match=match, seat=seat, player=seats[seat][0], version=version, pinned=True)
                for seat, version in pins.items()
            ]
        )
        if dispatch:
            dispatch_match(match.id)
    return match
