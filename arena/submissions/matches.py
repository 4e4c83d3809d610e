"""Matches whose submitted seats are played by a given version (validation games, tournaments)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena import actions
from arena.models import Match, MatchSeat, Player
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
        match = Match.objects.create(
            game=spec.key,
            kind=kind,
            rated=kind in Match.RATED_KINDS,
            options=normalised,
            seed=seed,
            created_by=created_by,
            lease_expires_at=timezone.now() + timedelta(seconds=settings.ARENA_QUEUED_RESEND_SECONDS),
        )
        MatchSeat.objects.bulk_create(
            [MatchSeat(match=match, seat=seat, player=player) for seat, (player, _) in enumerate(seats)]
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
