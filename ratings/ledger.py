"""Every write of the ratings: a rated batch of matches (`rate`), a new bot version (`reset_provisional`).

Rating rows are locked in player order, each rated match writes one ledger row per seat, and the
leaderboard index is sent the values written once the transaction commits. `replay_ledger` checks
that the ratings and deviations follow from the match results.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from arena.models import Match, MatchSeat, Player
from arena.rows import (
    Statement,
    copy_rows,
    instance,
    run_together,
    select_columns,
    update_rows,
    update_statement,
)
from ratings import buckets
from ratings.elo import (
    INITIAL_DEVIATION,
    INITIAL_RATING,
    NEW_VERSION_DEVIATION,
    PROVISIONAL_GAMES,
    RULE,
    RULES,
    fixed_k_ratings,
    idle,
    rate_game,
)
from ratings.leaderboard import index
from ratings.models import Rating, RatingChange, current_deviation
from ratings.pinning import is_placing, may_pin, pinned


@dataclass(frozen=True)
class SeatChange:
    player_id: int
    before: float
    after: float
    deviation_before: float
    deviation_after: float


@dataclass(frozen=True)
class GameResult:
    """A finished rated match, its players in seat order with their totals and forfeits."""

    match: Match
    players: Sequence[Player]
    totals: Sequence[float]
    forfeited: Sequence[bool]


def _lock_rows(game: str, players: Sequence[Player]) -> dict[int, Rating]:
    """Create the missing rating rows, then lock them in ascending player id (the order of every batch).

    Both statements go in one round trip (`arena.rows.run_together`). The missing rows are made by
    PostgreSQL from two arrays (ids and kinds): a batch's players are mostly rated already, and
    making a model instance of each to insert nothing cost more than the rest of the lock.
    """
    by_id = sorted({player.id: player for player in players}.values(), key=lambda player: player.id)
    create = (
        "INSERT INTO ratings_rating (player_id, game, kind, rating, games, deviation, rated_at, provisional_left,"
        " updated_at) SELECT new.player_id, %s, new.kind, %s, 0, %s, NULL, 0, %s"
        " FROM unnest(%s::bigint[], %s::varchar[]) WITH ORDINALITY AS new (player_id, kind, n) ORDER BY new.n"
        " ON CONFLICT (player_id, game) DO NOTHING",
        [game, INITIAL_RATING, INITIAL_DEVIATION, timezone.now(), [p.id for p in by_id], [p.kind for p in by_id]],
    )
    lock = (
        f"SELECT {select_columns('rating', Rating)} FROM ratings_rating rating"
        f" WHERE rating.game = %s AND rating.player_id = ANY(%s::bigint[])"
        " ORDER BY rating.player_id FOR UPDATE",
        [game, [p.id for p in by_id]],
    )
    _, locked = run_together([create, lock])
    return {row.player_id: row for row in (instance(Rating, values) for values in locked)}


Changes = dict[tuple[int, int], SeatChange]


def rate(results: Sequence[GameResult], *, along: Callable[[Changes], Sequence[Statement]] | None = None) -> Changes:
    """Move the ratings of these rated matches once each, in the given order; the changes written.

    Must run inside the transaction that commits the results. The rating rows of every match are
    locked first, all at once, per game in ascending player id: batches that share players queue up
    instead of deadlocking. Each match is then rated on those rows in the given order (the commit
    order its players see), one ledger row per seat; a second rating of a match breaks the unique
    (match, player) of the ledger and fails the whole transaction. Each player's deviation first
    grows by its idle time, then the game's rating and deviation come from ratings.elo.rate_game,
    except a settled house bot's in a game with a bot still being placed, which are pinned
    (ratings.pinning): kept as they were. The ledger rows, the rating rows and the histogram are
    written here, once for the batch, and the leaderboard index follows on commit.

    The ledger rows go first, appended with one COPY (a second rating of a match fails there); then
    the histogram and the rating rows, and `along`: the caller's own writes, made from the changes (a
    finisher's matches and seats), all in one round trip (`arena.rows.run_together`).

    Returns {(match id, player id): SeatChange}.
    """
    changes, ledger, writes = _rate(results)
    if ledger:
        copy_rows(RatingChange, LEDGER_FIELDS, ledger)
    extra = along(changes) if along is not None else ()
    run_together([*writes, *extra])
    return changes


# The columns of a ledger row as `_rate` makes it (`k_games` is left null: it belongs to the fixed-K rows of old).
LEDGER_FIELDS = (
    "match",
    "player",
    "game",
    "before",
    "after",
    "games_before",
    "deviation_before",
    "deviation_after",
    "rated_at",
    "rule",
    "pinned",
    "created_at",
)


def _rate(results: Sequence[GameResult]) -> tuple[Changes, list[tuple[object, ...]], list[Statement]]:
    """The changes of `rate`, the ledger rows (values of LEDGER_FIELDS, in rating order), and the
    statements that write the rest."""
    if not results:
        return {}, [], []
    by_game: dict[str, list[Player]] = {}
    for result in results:
        by_game.setdefault(result.match.game, []).extend(result.players)
    rows: dict[tuple[str, int], Rating] = {}
    for game in sorted(by_game):
        rows.update({(game, player_id): row for player_id, row in _lock_rows(game, by_game[game]).items()})
    now = timezone.now()
    changes: dict[tuple[int, int], SeatChange] = {}
    ledger: list[tuple[object, ...]] = []
    moves: dict[str, list[tuple[str, float | None, float]]] = {}
    touched: dict[tuple[str, int], Player] = {}
    for result in results:
        match = result.match
        seated = [rows[(match.game, player.id)] for player in result.players]
        before = [(row.rating, current_deviation(row.deviation, row.rated_at, now)) for row in seated]
        placing = [is_placing(row.games, row.provisional_left) for row in seated]
        held = pinned(result.players, [deviation for _, deviation in before], placing)
        rated = rate_game(before, list(result.totals), list(result.forfeited), RULE)
        after = [was if pin else moved for was, moved, pin in zip(before, rated, held, strict=True)]
        # A row that was never rated is not in the histogram yet.
        moves.setdefault(match.game, []).extend(
            (row.kind, row.rating if row.games else None, rating)
            for row, (rating, _) in zip(seated, after, strict=True)
        )
        for row, (rating, deviation), (rating_after, deviation_after), pin in zip(
            seated, before, after, held, strict=True
        ):
            changes[(match.pk, row.player_id)] = SeatChange(
                row.player_id, rating, rating_after, deviation, deviation_after
            )
            ledger.append(
                (
                    match.pk,
                    row.player_id,
                    match.game,
                    rating,
                    rating_after,
                    row.games,
                    deviation,
                    deviation_after,
                    now,
                    RULE,
                    pin,
                    now,
                )
            )
            if not pin:
                row.rating, row.deviation, row.rated_at = rating_after, deviation_after, now
            # A pinned row keeps its deviation and the time of the last game that moved it, so that
            # its deviation goes on growing with the time since then (ratings.pinning).
            row.games += 1
            row.provisional_left = max(0, row.provisional_left - 1)
            row.updated_at = now
        touched.update({(match.game, player.id): player for player in result.players})
    # The histogram, then the rows (the ledger rows go before them, `rate`).
    writes: list[Statement] = []
    for game, game_moves in sorted(moves.items()):
        bucket_write = buckets.move_statement(game, game_moves)
        if bucket_write is not None:
            writes.append(bucket_write)
    written = [rows[key] for key in sorted(touched)]
    fields = ["rating", "deviation", "rated_at", "games", "provisional_left", "updated_at"]
    writes.append(update_statement(Rating, written, fields))
    for game in sorted({game for game, _ in touched}):
        keys = [key for key in sorted(touched) if key[0] == game]
        # The leaderboard index follows once the transaction commits, with the values written here.
        index.apply_on_commit(game, [rows[key] for key in keys], [touched[key] for key in keys])
    return changes, ledger, writes


def reset_provisional(player: Player) -> int:
    """A new version of a submitted bot: its ratings are kept but uncertain again; returns the rows.

    The deviation is raised to NEW_VERSION_DEVIATION (a larger one is kept), so the next games move
    the rating fast, and the matchmaker owes it PROVISIONAL_GAMES placement games. The rows are
    locked like a rated match's; the index is sent the values written on commit.
    """
    now = timezone.now()
    with transaction.atomic():
        locked = list(Rating.objects.select_for_update().filter(player=player).order_by("game"))
        for row in locked:
            row.deviation = max(row.deviation, NEW_VERSION_DEVIATION)
            row.provisional_left = PROVISIONAL_GAMES
            row.updated_at = now
        update_rows(Rating, locked, ["deviation", "provisional_left", "updated_at"])
        for row in locked:
            index.apply_on_commit(row.game, [row], [player])
    return len(locked)


class LedgerMismatch(AssertionError):
    """The ratings do not follow from replaying the ledger."""


def _k_games(change: RatingChange | None, games: int) -> int:
    """The replayed count of a fixed-K row, unless the ledger shows a provisional reset (a new bot version)."""
    if change is None or change.k_games is None or change.k_games == games:
        return games
    if change.k_games > games or change.k_games >= PROVISIONAL_GAMES:
        raise LedgerMismatch(
            f"match {change.match_id} player {change.player_id}: K count {change.k_games} "
            f"with {games} games played is not a provisional reset"
        )
    return change.k_games


@dataclass(frozen=True)
class Replayed:
    """A player's state after its last replayed game."""

    rating: float
    games: int
    # None after a row written by the fixed-K formula: the next row's deviation is taken as written.
    deviation: float | None
    rated_at: datetime | None


NEW_PLAYER = Replayed(INITIAL_RATING, 0, INITIAL_DEVIATION, None)


def _deviation_at(state: Replayed, change: RatingChange) -> float:
    """The deviation the game must have been rated with: the last one grown by the idle time, or a reset's."""
    recorded = change.deviation_before
    assert recorded is not None
    if state.deviation is None:
        return recorded
    days = 0.0
    if state.rated_at is not None and change.rated_at is not None:
        days = float((change.rated_at - state.rated_at).days)  # whole days, as current_deviation counts
    grown = idle(state.deviation, days)
    reset = idle(max(state.deviation, NEW_VERSION_DEVIATION), days)
    if recorded == reset and recorded != grown:
        return reset  # a new bot version made the rating uncertain again
    return grown


def replay_ledger(game: str) -> dict[int, Replayed]:
    """Recompute every rating and deviation of `game` from the match results, in ledger order.

    Each match is applied when its first ledger row appears (rows of one match are written together
    under the locks of all its players). Raises LedgerMismatch at the first difference with the
    stored before/after values; returns {player_id: Replayed}.
    """
    state: dict[int, Replayed] = {}
    seen: set[int] = set()
    match_ids = []
    for match_id in RatingChange.objects.filter(game=game).order_by("id").values_list("match_id", flat=True):
        if match_id not in seen:
            seen.add(match_id)
            match_ids.append(match_id)
    seats_by_match: dict[int, list[MatchSeat]] = {}
    for seat in MatchSeat.objects.filter(match_id__in=match_ids).select_related("player").order_by("match_id", "seat"):
        seats_by_match.setdefault(seat.match_id, []).append(seat)
    recorded = {(change.match_id, change.player_id): change for change in RatingChange.objects.filter(game=game)}
    for match_id in match_ids:
        seats = seats_by_match[match_id]
        current = [state.get(seat.player_id, NEW_PLAYER) for seat in seats]
        rows = [recorded.get((match_id, seat.player_id)) for seat in seats]
        missing = [seat.player_id for seat, row in zip(seats, rows, strict=True) if row is None]
        if missing:
            raise LedgerMismatch(f"match {match_id}: no ledger row for players {missing}")
        changes = [row for row in rows if row is not None]
        totals = [float(seat.score or 0) for seat in seats]
        forfeits = [seat.forfeited for seat in seats]
        if all(change.deviation_before is None for change in changes):
            ratings = fixed_k_ratings(
                [player.rating for player in current],
                totals,
                [_k_games(change, player.games) for change, player in zip(changes, current, strict=True)],
                forfeits,
            )
            after: list[tuple[float | None, float | None]] = [(rating, None) for rating in ratings]
            before: list[tuple[float, float | None]] = [(player.rating, None) for player in current]
        else:
            if any(change.deviation_before is None for change in changes):
                raise LedgerMismatch(f"match {match_id}: some ledger rows have a deviation, some not")
            rules = {change.rule for change in changes}
            if len(rules) != 1 or not rules <= set(RULES):
                raise LedgerMismatch(
                    f"match {match_id}: ledger rows name the rules {sorted(rules)}, not one of {RULES}"
                )
            played = [
                (player.rating, _deviation_at(player, change)) for player, change in zip(current, changes, strict=True)
            ]
            allowed = may_pin([seat.player for seat in seats])
            wrong = [
                seat.player_id
                for seat, change, ok in zip(seats, changes, allowed, strict=True)
                if change.pinned and not ok
            ]
            if wrong:
                raise LedgerMismatch(
                    f"match {match_id}: ledger rows pin players {wrong}, who are not house bots among others"
                )
            rated = rate_game(played, totals, forfeits, rules.pop())
            after = [was if change.pinned else moved for was, moved, change in zip(played, rated, changes, strict=True)]
            before = list(played)
        for seat, player, change, (rating, deviation), (rating_after, deviation_after) in zip(
            seats, current, changes, before, after, strict=True
        ):
            written = (change.before, change.deviation_before, change.after, change.deviation_after)
            replayed = (rating, deviation, rating_after, deviation_after)
            if written != replayed:
                raise LedgerMismatch(
                    f"match {match_id} player {seat.player_id}: replay gives (rating, deviation) before "
                    f"and after {replayed!r}, the ledger has {written!r}"
                )
            assert rating_after is not None
            if change.pinned:
                state[seat.player_id] = replace(player, games=player.games + 1)
            else:
                state[seat.player_id] = Replayed(rating_after, player.games + 1, deviation_after, change.rated_at)
    return state


def verify_ratings(game: str) -> dict[int, Replayed]:
    """Replay the ledger and compare it with the rating rows; raises LedgerMismatch at a difference.

    Every rated row must hold the replayed rating, games, deviation and time of its last game. A
    new bot version's reset shows only in its row until its next game: such a row (provisional
    games owed, deviation raised to the reset's) is accepted as well.
    """
    replayed = replay_ledger(game)
    rows = Rating.objects.filter(game=game, games__gt=0).values_list(
        "player_id", "rating", "games", "deviation", "rated_at", "provisional_left"
    )
    stored: set[int] = set()
    for player_id, rating, games, deviation, rated_at, provisional_left in rows:
        stored.add(player_id)
        state = replayed.get(player_id)
        if state is None:
            raise LedgerMismatch(f"player {player_id} has {games} rated games and no ledger row")
        held = Replayed(rating, games, deviation, rated_at)
        if state.deviation is None:  # last rated before deviations: its deviation came from the migration
            held = Replayed(rating, games, None, state.rated_at)
        reset = (
            provisional_left == PROVISIONAL_GAMES
            and state.deviation is not None
            and deviation == max(state.deviation, NEW_VERSION_DEVIATION)
        )
        if held != state and not (reset and Replayed(rating, games, state.deviation, rated_at) == state):
            raise LedgerMismatch(f"player {player_id}: the row holds {held!r}, the ledger replays to {state!r}")
    unrated = set(replayed) - stored
    if unrated:
        raise LedgerMismatch(f"players {sorted(unrated)} have ledger rows and no rated row")
    return replayed
