"""Matches whose submitted seats are played by a given version (validation games, tournaments)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from arena import actions
from arena.models import Match, Player
from arena.submissions.models import BotSeat, BotVersion


def create_pinned_match(
    *,
    game: str,
    kind: str,
    seats: Sequence[tuple[Player, BotVersion | None]],
    options: dict[str, Any],
    seed: int,
    created_by: Any = None,
    dispatch: bool = True,
) -> Match:
    """A queued match; each (player, version) seat is played by that version whatever happens later.

    Inside the caller's transaction when there is one; the play task is sent on commit.
    """
    spec = actions.resolve_game(game)
    normalised = spec.validate_options(options, len(seats))
    with transaction.atomic():
        match = actions.insert_queued_match(
            spec=spec,
            kind=kind,
            players=[player for player, _ in seats],
            options=normalised,
            seed=seed,
            created_by=created_by,
        )
        BotSeat.objects.bulk_create(
            [
                BotSeat(match=match, seat=seat, player=player, version=version, pinned=True)
                for seat, (player, version) in enumerate(seats)
                if version is not None
            ]
        )
        if dispatch:
            actions.dispatch_match(match.id)
    return match
