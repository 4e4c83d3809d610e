"""Why an arena entry waits and about how long: the matchmaker's own rules, told to the bot's owner."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.conf import settings

from arena.models import ArenaEntry, Match
from matchmaking.house import is_house_bot, is_placing, ladder
from matchmaking.pairing import Waiting
from ratings.elo import INITIAL_RATING
from ratings.models import Rating


def explain(entries: Sequence[ArenaEntry], now: datetime) -> dict[int, dict[str, Any]]:
    """Per entry id: `state` (playing, placing, waiting, left), `reason`, `expected_seconds` (or None), `match`."""
    stats = {
        (player_id, game): (rating, games, provisional_left)
        for player_id, game, rating, games, provisional_left in Rating.objects.filter(
            player_id__in=[entry.player_id for entry in entries]
        ).values_list("player_id", "game", "rating", "games", "provisional_left")
    }
    tick = float(settings.ARENA_MATCHMAKING_SECONDS)
    patience = float(settings.ARENA_BOT_HOUSE_AFTER_SECONDS)
    answers = {}
    for entry in entries:
        rating, games, provisional_left = stats.get((entry.player_id, entry.game), (INITIAL_RATING, 0, 0))
        current = entry.current_match
        since = entry.waiting_since
        if current is not None and current.finished_at and current.finished_at > since:
            since = current.finished_at
        waiting = Waiting(entry, rating, since)
        waited = max(0.0, (now - since).total_seconds())
        answer: dict[str, Any] = {"match": None, "expected_seconds": None}
        if not entry.active:
            answer.update(state="left", reason="the entry has left the arena")
        elif current is not None and current.status in (Match.Status.QUEUED, Match.Status.RUNNING):
            reason = f"playing arena match {current.id} ({current.status})"
            answer.update(state="playing", match=current.id, reason=reason)
        elif is_house_bot(entry.player):
            answer.update(
                state="waiting",
                reason="a house bot waits for bots of other owners; house bots never fill seats for one",
            )
        elif ladder() and is_placing(waiting, games, provisional_left):
            answer.update(
                state="placing",
                expected_seconds=round(tick, 1),
                reason=(
                    f"placement ({games} of {settings.ARENA_BOT_PLACEMENT_GAMES} rated games, or a new version "
                    "still provisional): seated with the house ladder at the next matchmaking tick"
                ),
            )
        else:
            window = waiting.window(now)
            reason = (
                f"waiting for bots of other owners rated within {window:.0f} of {rating:.0f} "
                f"(the window widens by {settings.ARENA_WINDOW_PER_SECOND:g} a second)"
            )
            if ladder():
                left = max(0.0, patience - waited)
                reason += f"; house bots fill the empty seats after {patience:g} s of waiting ({left:.0f} s left)"
                answer["expected_seconds"] = round(left + tick, 1)
            answer.update(state="waiting", reason=reason)
        answer["waiting_seconds"] = round(waited, 1)
        answers[entry.id] = answer
    return answers
