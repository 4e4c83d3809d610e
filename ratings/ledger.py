"""Applying a rated match to the ratings: rows locked in player order, one ledger row per seat."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

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


@dataclass
class _Batch:
    """Rating rows of a batch of results, locked once; what the batch changed, written on leaving."""

    rows: dict[tuple[str, int], Rating]
    moves: dict[str, list[tuple[str, float | None, float]]] = field(default_factory=dict)
    touched: dict[tuple[str, int], Player] = field(default_factory=dict)


_batch: ContextVar[_Batch | None] = ContextVar("rating_batch", default=None)


def _lock_rows(game: str, players: Sequence[Player]) -> dict[int, Rating]:
    """Create the missing rating rows, then lock them in ascending player id (the order of every match)."""
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


@contextmanager
def rating_batch(items: Sequence[tuple[Match, list[MatchSeat]]]) -> Iterator[None]:
    """The core's batch hook: lock the rating rows of every rated match of the batch at once.

    Locking them all first, in ascending player id per game, lets batches that share players queue
    up instead of deadlocking. Inside, `rate_match` rates each match on these rows in batch order;
    on leaving, the histogram, the rating rows and the leaderboard index are written once.
    """
    players: dict[str, list[Player]] = {}
    for match, seats in items:
        if match.rated:
            players.setdefault(match.game, []).extend(seat.player for seat in seats)
    if not players or _batch.get() is not None:
        yield
        return
    rows: dict[tuple[str, int], Rating] = {}
    for game in sorted(players):
        rows.update({(game, player_id): row for player_id, row in _lock_rows(game, players[game]).items()})
    batch = _Batch(rows=rows)
    token = _batch.set(batch)
    try:
        yield
    finally:
        _batch.reset(token)
    for game, moves in sorted(batch.moves.items()):
        buckets.move(game, moves)
    written = [batch.rows[key] for key in sorted(batch.touched)]
    # A rated match's rows reach the leaderboard index below, with the values written here.
    update_rows(Rating, written, ["rating", "games", "provisional_left", "updated_at"])
    for game in sorted({game for game, _ in batch.touched}):
        keys = [key for key in sorted(batch.touched) if key[0] == game]
        standings.apply_on_commit(game, [batch.rows[key] for key in keys], [batch.touched[key] for key in keys])


def rate_match(
    match: Match,
    players: Sequence[Player],
    totals: Sequence[float],
    forfeited: Sequence[bool],
) -> list[SeatChange]:
    """Must run inside the transaction that commits the match result.

    Rating rows are created if missing, then locked in ascending player id, the same order for
    every match, so concurrent matches sharing players queue up instead of deadlocking; inside
    `rating_batch` the batch has locked them already, and the rows, the histogram and the index
    are written once when the batch ends.
    """
    batch = _batch.get()
    if batch is not None and all((match.game, player.id) in batch.rows for player in players):
        locked = {player.id: batch.rows[(match.game, player.id)] for player in players}
    else:
        batch = None
        locked = _lock_rows(match.game, players)
    rows = [locked[player.id] for player in players]
    k_games = [row.k_games for row in rows]
    after = new_ratings([row.rating for row in rows], list(totals), k_games, list(forfeited))
    now = timezone.now()
    changes = []
    ledger = []
    # A row that was never rated is not in the histogram yet.
    moves = [(row.kind, row.rating if row.games else None, value) for row, value in zip(rows, after, strict=True)]
    if batch is None:
        buckets.move(match.game, moves)
    else:
        batch.moves.setdefault(match.game, []).extend(moves)
    for row, rating_after, k_count in zip(rows, after, k_games, strict=True):
        changes.append(SeatChange(row.player_id, row.rating, rating_after))
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
    # Unique (match, player) makes a second rating of the same match fail as a whole.
    RatingChange.objects.bulk_create(ledger)
    if batch is None:
        Rating.objects.bulk_update_rated(rows, ["rating", "games", "provisional_left", "updated_at"])
        standings.apply_on_commit(match.game, rows, players)
    else:
        batch.touched.update({(match.game, player.id): player for player in players})
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
