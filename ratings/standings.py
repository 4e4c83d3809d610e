"""The leaderboard order kept in Redis sorted sets: exact pages and ranks in O(log n).

One sorted set per (database, game, all | kind) holds every rated player: the score is minus the
rating, the member the player id zero-padded to a fixed width, so Redis' own order (score, then
member bytes) is rating descending with ties to the lower player id, the order of the SQL
indexes. A hash keeps each player's rated-game count: a change is applied only when its count is
higher than the one stored, so changes sent after their commits arrive in any order (or twice) and
leave the newest rating.

PostgreSQL stays the truth. The sets are "ready" only once a rebuild from the ratings table has
finished; until then (empty or flushed Redis) readers answer from SQL and ask for a rebuild, and
changes are not applied. Readers use the sets only for the order; names, game counts and the
provisional mark are read from the database rows of the page.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

import redis
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from arena.models import Player
from ratings.models import Rating

log = logging.getLogger(__name__)

KINDS: tuple[str, ...] = tuple(str(kind) for kind in Player.Kind.values)
MEMBER_WIDTH = 12
REBUILD_CHUNK = 20_000
# A rebuild re-applies the rows changed since shortly before its snapshot: a match committed while
# the snapshot was read keeps its change even though it reached the old sets only.
CATCH_UP_MARGIN = timedelta(minutes=5)
# A rebuild asked for by a reader is asked for again after this long if it never finished.
REBUILD_REQUEST_SECONDS = 600

_client: redis.Redis | None = None

# KEYS: ready, games hash, all set, one set per kind. ARGV: kind count, then (member, kind index,
# score, games) per player.
_APPLY = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local applied = 0
for i = 2, #ARGV, 4 do
  local member, kind, score, games = ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2], tonumber(ARGV[i + 3])
  local known = tonumber(redis.call('HGET', KEYS[2], member) or '-1')
  if games > known then
    redis.call('ZADD', KEYS[3], score, member)
    redis.call('ZADD', KEYS[3 + kind], score, member)
    redis.call('HSET', KEYS[2], member, games)
    applied = applied + 1
  end
end
return applied
"""

# KEYS: ready, the board's set. ARGV: member, how many neighbours each side.
# Returns nil when not ready, {-1} when the member is absent, else {rank0, first rank0, members...}.
_AROUND = """
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
local rank = redis.call('ZRANK', KEYS[2], ARGV[1])
if not rank then return {-1} end
local first = math.max(0, rank - tonumber(ARGV[2]))
local result = {rank, first}
for _, member in ipairs(redis.call('ZRANGE', KEYS[2], first, rank + tonumber(ARGV[2]))) do
  result[#result + 1] = member
end
return result
"""

# KEYS: ready, then pairs (built key, live key). ARGV: ready value. A missing built key (a kind
# nobody has yet) empties its live key.
_SWAP = """
for i = 2, #KEYS, 2 do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    redis.call('RENAME', KEYS[i], KEYS[i + 1])
  else
    redis.call('DEL', KEYS[i + 1])
  end
end
redis.call('SET', KEYS[1], ARGV[1])
return 1
"""


def client() -> redis.Redis | None:
    """The process' Redis client, or None when the service runs without Redis."""
    global _client
    if settings.REDIS_FALLBACK:
        return None
    if _client is None:
        _client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2.0, socket_connect_timeout=2.0)
    return _client


def _namespace(game: str) -> str:
    # One Redis serves every database the service may point at (tests, benchmarks, development).
    database = re.sub(r"[^A-Za-z0-9_.-]", "_", str(connection.settings_dict["NAME"]))[-60:]
    return f"arena:{database}:board:{game}"


@dataclass(frozen=True)
class Keys:
    ready: str
    games: str
    all: str
    kinds: tuple[str, ...]
    rebuild_requested: str

    def board(self, kind: str | None) -> str:
        return self.all if kind is None else self.kinds[KINDS.index(kind)]

    @property
    def data(self) -> tuple[str, ...]:
        return (self.games, self.all, *self.kinds)


def keys(game: str) -> Keys:
    base = _namespace(game)
    return Keys(
        ready=f"{base}:ready",
        games=f"{base}:games",
        all=f"{base}:all",
        kinds=tuple(f"{base}:{kind}" for kind in KINDS),
        rebuild_requested=f"{base}:rebuild-requested",
    )


def member(player_id: int) -> str:
    return str(player_id).zfill(MEMBER_WIDTH)


def _args(rows: Iterable[tuple[int, str, float, int]]) -> list[object]:
    args: list[object] = []
    for player_id, kind, rating, games in rows:
        args += [member(player_id), KINDS.index(kind) + 1, repr(-float(rating)), int(games)]
    return args


def apply(game: str, rows: Sequence[tuple[int, str, float, int]]) -> int:
    """Apply committed (player id, kind, rating, games) rows; returns how many moved, -1 if not ready.

    Never raises: a change that cannot reach Redis drops the ready mark when it can, so readers go
    back to SQL until the next rebuild rather than show a stale order.
    """
    redis_client = client()
    if redis_client is None or not rows:
        return 0
    names = keys(game)
    try:
        return int(redis_client.eval(_APPLY, 2 + len(KINDS), names.ready, *names.data, len(KINDS), *_args(rows)))
    except redis.RedisError:
        log.exception("leaderboard index of %s not updated; it is rebuilt from the database", game)
        try:
            redis_client.delete(names.ready)
        except redis.RedisError:
            pass
        return 0


def apply_on_commit(game: str, rows: Iterable[Rating]) -> None:
    """Send the rows' new ratings to the index once the rating transaction commits."""
    snapshot = [(row.player_id, row.kind, row.rating, row.games) for row in rows]
    transaction.on_commit(partial(apply, game, snapshot))


@dataclass(frozen=True)
class PageOrder:
    count: int
    player_ids: list[int]


def page_order(game: str, kind: str | None, offset: int, size: int) -> PageOrder | None:
    """The board's size and the player ids at [offset, offset + size), or None when not ready."""
    redis_client = client()
    if redis_client is None:
        return None
    names = keys(game)
    board = names.board(kind)
    try:
        with redis_client.pipeline(transaction=True) as pipe:
            pipe.exists(names.ready)
            pipe.zcard(board)
            pipe.zrange(board, offset, offset + size - 1)
            ready, count, members = pipe.execute()
    except redis.RedisError:
        log.exception("leaderboard index unreachable; reading from the database")
        return None
    if not ready:
        return None
    return PageOrder(int(count), [int(raw) for raw in members])


@dataclass(frozen=True)
class Around:
    rank: int
    first_rank: int
    player_ids: list[int]


def around(game: str, kind: str | None, player_id: int, count: int) -> Around | None | bool:
    """The player's rank and the ids from `count` above to `count` below, best first.

    None when the index is not ready, False when the player is not on this board.
    """
    redis_client = client()
    if redis_client is None:
        return None
    names = keys(game)
    try:
        found = redis_client.eval(_AROUND, 2, names.ready, names.board(kind), member(player_id), count)
    except redis.RedisError:
        log.exception("leaderboard index unreachable; reading from the database")
        return None
    if found is None:
        return None
    if int(found[0]) < 0:
        return False
    return Around(int(found[0]) + 1, int(found[1]) + 1, [int(raw) for raw in found[2:]])


def size(game: str, kind: str | None) -> int | None:
    redis_client = client()
    if redis_client is None:
        return None
    names = keys(game)
    try:
        with redis_client.pipeline(transaction=True) as pipe:
            pipe.exists(names.ready)
            pipe.zcard(names.board(kind))
            ready, count = pipe.execute()
    except redis.RedisError:
        return None
    return int(count) if ready else None


def request_rebuild(game: str, send: Callable[[str], None]) -> None:
    """Call `send(game)` after commit unless a rebuild was asked for recently (readers call this)."""
    redis_client = client()
    if redis_client is None:
        return
    try:
        first = redis_client.set(keys(game).rebuild_requested, "1", nx=True, ex=REBUILD_REQUEST_SECONDS)
    except redis.RedisError:
        return
    if first:
        transaction.on_commit(partial(send, game))


def forget(game: str) -> None:
    """Drop the game's index (tests, and before a rebuild from scratch)."""
    redis_client = client()
    if redis_client is None:
        return
    names = keys(game)
    redis_client.delete(names.ready, names.rebuild_requested, *names.data)


def rebuild(game: str, progress: Callable[[int], None] | None = None) -> int:
    """Rebuild the game's sets from the ratings table; returns how many players they hold.

    The sets are filled under temporary names and swapped in at once, so readers keep the old
    order (or SQL) until the new one is complete; rows changed meanwhile are applied again after.
    """
    redis_client = client()
    if redis_client is None:
        return 0
    names = keys(game)
    token = uuid.uuid4().hex
    built = Keys(
        ready="",
        games=f"{names.games}:{token}",
        all=f"{names.all}:{token}",
        kinds=tuple(f"{key}:{token}" for key in names.kinds),
        rebuild_requested="",
    )
    started = timezone.now()
    total = 0
    try:
        rows = (
            Rating.objects.filter(game=game)
            .order_by()
            .values_list("player_id", "kind", "rating", "games")
            .iterator(chunk_size=REBUILD_CHUNK)
        )
        chunk: list[tuple[int, str, float, int]] = []
        for row in rows:
            chunk.append(row)
            if len(chunk) >= REBUILD_CHUNK:
                _write_chunk(redis_client, built, chunk)
                total += len(chunk)
                if progress:
                    progress(len(chunk))
                chunk = []
        if chunk:
            _write_chunk(redis_client, built, chunk)
            total += len(chunk)
            if progress:
                progress(len(chunk))
        swap_keys: list[str] = [names.ready]
        for new, live in zip(built.data, names.data, strict=True):
            swap_keys += [new, live]
        redis_client.eval(_SWAP, len(swap_keys), *swap_keys, started.isoformat())
    finally:
        redis_client.delete(*built.data)
    changed = list(
        Rating.objects.filter(game=game, updated_at__gte=started - CATCH_UP_MARGIN)
        .order_by()
        .values_list("player_id", "kind", "rating", "games")
    )
    for start in range(0, len(changed), REBUILD_CHUNK):
        apply(game, changed[start : start + REBUILD_CHUNK])
    redis_client.delete(names.rebuild_requested)
    return total


def _write_chunk(redis_client: redis.Redis, built: Keys, chunk: list[tuple[int, str, float, int]]) -> None:
    by_board: dict[str, dict[str, float]] = {built.all: {}}
    games: dict[str, int] = {}
    for player_id, kind, rating, played in chunk:
        name = member(player_id)
        by_board[built.all][name] = -float(rating)
        by_board.setdefault(built.board(kind), {})[name] = -float(rating)
        games[name] = int(played)
    with redis_client.pipeline(transaction=False) as pipe:
        for board, scores in by_board.items():
            pipe.zadd(board, scores)  # type: ignore[arg-type]
        pipe.hset(built.games, mapping=games)  # type: ignore[arg-type]
        pipe.execute()
