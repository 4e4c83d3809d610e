"""Applying a rated match to the ratings: rows locked in player order, one ledger row per seat."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import timezone

from arena.models import Match, MatchSeat, Player
from arena.rows import update_rows
from ratings import buckets, standings
from ratings.elo import INITIAL_RATING, PROVISIONAL_GAMES, new_ratings
from ratings.models import Rating, RatingChange


@dataclass(frozen=True)
class SeatChange:
    player_id: int
    before: float
    after: float


@dataclass(frozen=True)
class GameResult:
    """A finished rated match, its players in seat order with their totals and forfeits."""

    match: Match
    players: Sequence[Player]
    totals: Sequence[float]
    forfeited: Sequence[bool]


def _lock_rows(game: str, players: Sequence[Player]) -> dict[int, Rating]:
    """Create the missing rating rows, then lock them in ascending player id (the order of every batch)."""
    by_id = sorted({player.id: player for player in players}.values(), key=lambda player: player.id)
    Rating.objects.bulk_create(
        [Rating(player=p, game=game, kind=p.kind, rating=INITIAL_RATING) for p in by_id],
        ignore_conflicts=True,
    )
    return {
        rating.player_id: rating
        for rating in Rating.objects.select_for_update()
        .filter(game=game, player_id__in=[p.id for p in by_id])
        .order_by("player_id")
    }


def rate(results: Sequence[GameResult]) -> dict[tuple[int, int], SeatChange]:
    """Move the ratings of these rated matches once each, in the given order; the changes written.

    Must run inside the transaction that commits the results. The rating rows of every match are
    locked first, all at once, per game in ascending player id: batches that share players queue up
    instead of deadlocking. Each match is then rated on those rows in the given order (the commit
    order its players see), one ledger row per seat; a second rating of a match breaks the unique
    (match, player) of the ledger and fails the whole transaction. The rating rows, the histogram
    and the leaderboard index (on commit) are written once for the batch.

    Returns {(match id, player id): SeatChange}.
    """
    if not results:
        return {}
    by_game: dict[str, list[Player]] = {}
    for result in results:
        by_game.setdefault(result.match.game, []).extend(result.players)
    rows: dict[tuple[str, int], Rating] = {}
    for game in sorted(by_game):
        rows.update({(game, player_id): row for player_id, row in _lock_rows(game, by_game[game]).items()})
    now = timezone.now()
    changes: dict[tuple[int, int], SeatChange] = {}
    ledger: list[RatingChange] = []
    moves: dict[str, list[tuple[str, float | None, float]]] = {}
    touched: dict[tuple[str, int], Player] = {}
    for result in results:
        match = result.match
        seated = [rows[(match.game, player.id)] for player in result.players]
        k_games = [row.k_games for row in seated]
        after = new_ratings([row.rating for row in seated], list(result.totals), k_games, list(result.forfeited))
        # A row that was never rated is not in the histogram yet.
        moves.setdefault(match.game, []).extend(
            (row.kind, row.rating if row.games else None, value) for row, value in zip(seated, after, strict=True)
        )
        for row, rating_after, k_count in zip(seated, after, k_games, strict=True):
            changes[(match.pk, row.player_id)] = SeatChange(row.player_id, row.rating, rating_after)
            ledger.append(
                RatingChange(
                    match=match,
                    player_id=row.player_id,
                    game=match.game,
                    before=row.rating,
                    after=rating_after,
                    games_before=row.games,
                    k_games=k_count,
                )
            )
            row.rating = rating_after
            row.games += 1
            row.provisional_left = max(0, row.provisional_left - 1)
            row.updated_at = now
        touched.update({(match.game, player.id): player for player in result.players})
    RatingChange.objects.bulk_create(ledger)
    for game, game_moves in sorted(moves.items()):
        buckets.move(game, game_moves)
    written = [rows[key] for key in sorted(touched)]
    update_rows(Rating, written, ["rating", "games", "provisional_left", "updated_at"])
    for game in sorted({game for game, _ in touched}):
        keys = [key for key in sorted(touched) if key[0] == game]
        # The leaderboard index follows once the transaction commits, with the values written here.
        standings.apply_on_commit(game, [rows[key] for key in keys], [touched[key] for key in keys])
    return changes


class LedgerMismatch(AssertionError):
    """The ratings do not follow from replaying the ledger."""


def _k_games(change: RatingChange | None, games: int) -> int:
    """The replayed count, unless the ledger shows a provisional reset (a new bot version)."""
    if change is None or change.k_games is None or change.k_games == games:
        return games
    if change.k_games > games or change.k_games >= PROVISIONAL_GAMES:
        raise LedgerMismatch(
            f"match {change.match_id} player {change.player_id}: K count {change.k_games} "
            f"with {games} games played is not a provisional reset"
        )
    return change.k_games


def replay_ledger(game: str) -> dict[int, tuple[float, int]]:
    """Recompute every rating of `game` from the match results, in ledger order.

    Each match is applied when its first ledger row appears (rows of one match are written together
    under the locks of all its players). Raises LedgerMismatch at the first difference with the
    stored before/after values; returns {player_id: (rating, games)}.
    """
    state: dict[int, tuple[float, int]] = {}
    seen: set[int] = set()
    match_ids = []
    for match_id in RatingChange.objects.filter(game=game).order_by("id").values_list("match_id", flat=True):
        if match_id not in seen:
            seen.add(match_id)
            match_ids.append(match_id)
    seats_by_match: dict[int, list[MatchSeat]] = {}
    for seat in MatchSeat.objects.filter(match_id__in=match_ids).order_by("match_id", "seat"):
        seats_by_match.setdefault(seat.match_id, []).append(seat)
    recorded = {(change.match_id, change.player_id): change for change in RatingChange.objects.filter(game=game)}
    for match_id in match_ids:
        seats = seats_by_match[match_id]
        current = [state.get(seat.player_id, (INITIAL_RATING, 0)) for seat in seats]
        after = new_ratings(
            [rating for rating, _ in current],
            [float(seat.score or 0) for seat in seats],
            [
                _k_games(recorded.get((match_id, seat.player_id)), games)
                for seat, (_, games) in zip(seats, current, strict=True)
            ],
            [seat.forfeited for seat in seats],
        )
        for seat, (rating, games), value in zip(seats, current, after, strict=True):
            change = recorded.get((match_id, seat.player_id))
            if change is None or change.before != rating or change.after != value:
                raise LedgerMismatch(
                    f"match {match_id} player {seat.player_id}: replay gives {rating!r} -> {value!r}, "
                    f"ledger has {change.before if change else None!r} -> {change.after if change else None!r}"
                )
            state[seat.player_id] = (value, games + 1)
    return state
