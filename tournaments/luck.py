"""A duplicate tournament's luck-corrected scores: each finished game's seats corrected once, after it.

The correction is the comparisons' (games.part_du_chef.control_variates): the decisions of entries
whose policy is known (the built-in `random` engine) are set against their expectation under that
policy, valued by the frozen baseline, so the corrected score keeps the score's expectation. Entries
of unknown policy (uploaded and hosted bots, greedy and the search bots) are never corrected: a game
without a known-policy seat keeps its totals as they are. A seat the stand-in
played after a forfeit is not corrected from that decision on.

Corrections are written by the tournament's advance task (`correct_finished`), a bounded batch at a
time, with a conditional update: a game is corrected once, whoever gets there first; and only once
every table of its deal is over (tournaments/secrecy.py). A game corrected under another baseline
than today's is corrected again: the standings add up corrected scores of one baseline only.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db.models import Exists, OuterRef, Q

from arena.models import Match
from games.part_du_chef.control_variates import BASELINE, correct, known_policy
from games.part_du_chef.placing import RECORD_FIELD, STAND_IN
from games.part_du_chef.record import replay
from tournaments.models import Tournament, TournamentEntry, TournamentGame
from tournaments.secrecy import deal_hold_backs

log = logging.getLogger(__name__)

# Games corrected per advance: a batch costs about a tenth of a second a game and seat.
BATCH = 20


def policy_names(entries: dict[int, TournamentEntry], seating: list[int]) -> list[str]:
    """Per seat, the built-in engine's name where the entry plays one, else "" (unknown policy)."""
    names = []
    for entry_id in seating:
        entry = entries.get(entry_id)
        if entry is not None and entry.version_id is None and entry.player.is_builtin:
            names.append(entry.player.builtin)
        else:
            names.append("")
    return names


def corrected_scores(record: dict[str, Any], names: list[str]) -> list[float]:
    """Each seat's total in the game of `record`, corrected for the known policies' luck."""
    state = replay(record)
    totals = [float(score.total) for score in state.scores()]
    if not any(policy is not None and not policy.deterministic for policy in map(known_policy, names)):
        return totals
    decided_by = (record.get(RECORD_FIELD) or {}).get("decided_by") or []
    stand_in = [who == STAND_IN for who in decided_by]
    options = record.get("options") or {}
    return [
        correct(
            state.seed,
            state.players,
            names,
            state.history,
            seat,
            marianne=bool(options.get("marianne")),
            marianne_seats=options.get("marianne_seats"),
            stand_in=stand_in,
        ).corrected
        for seat in range(state.players)
    ]


def stale(limit: int) -> list[int]:
    """Finished duplicate tournaments holding finished games not corrected under today's baseline
    (corrected under an earlier one: the advance task that would correct them again runs no more)."""
    games = TournamentGame.objects.filter(
        _not_corrected(), tournament=OuterRef("pk"), match__status=Match.Status.FINISHED
    )
    return list(
        Tournament.objects.filter(Exists(games), status=Tournament.Status.FINISHED, duplicate=True)
        .order_by("id")
        .values_list("id", flat=True)[:limit]
    )


def _not_corrected() -> Q:
    """Games with no corrected scores under today's baseline: none yet, or an earlier baseline's."""
    return Q(corrected__isnull=True) | ~Q(baseline=BASELINE.name)


def correct_finished(tournament: Tournament, batch: int = BATCH) -> int:
    """Correct up to `batch` finished games of a duplicate tournament not corrected under today's
    baseline yet; how many were."""
    if not tournament.duplicate:
        return 0
    games = list(
        TournamentGame.objects.filter(_not_corrected(), tournament=tournament, match__status=Match.Status.FINISHED)
        .select_related("match")
        .order_by("id")[:batch]
    )
    if not games:
        return 0
    entries = {entry.id: entry for entry in tournament.entries.select_related("player")}
    # A corrected score says something of the actions: not before every table of the deal is over.
    held_back = deal_hold_backs([game.match_id for game in games])
    done = 0
    for game in games:
        if game.match_id in held_back:
            continue
        record = game.match.record
        try:
            if not isinstance(record, dict):
                raise ValueError("no record")
            scores = corrected_scores(record, policy_names(entries, list(game.entries)))
        except ValueError as exc:
            # Nothing to correct from: an empty list, so that the game leaves the batch and its
            # entries show no corrected score (the standings' rule for a game without one).
            log.warning("tournament %s game %s: no corrected scores: %s", tournament.pk, game.pk, exc)
            scores = []
        done += TournamentGame.objects.filter(_not_corrected(), pk=game.pk).update(
            corrected=scores, baseline=BASELINE.name
        )
    return done
