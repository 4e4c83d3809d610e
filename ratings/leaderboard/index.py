"""The leaderboard's index backend, kept in Redis: exact pages and ranks in O(log n), without a database query.

One sorted set per (database, game, all | kind) holds every rated player: the score is minus the
rating, the member the player id zero-padded to a fixed width, so Redis' own order (score, then
member bytes) is rating descending with ties to the lower player id, the order of the SQL indexes.
A hash holds each player's line: rated games, provisional games left, the row's version, deviation,
time of the last rated game, kind and name. A rank is ZRANK + 1; how many players are above a
rating is one ZCOUNT, and a page's rank intervals (ratings.leaderboard) are all their ZCOUNTs in one
script.

Every write of a rating row reaches it after its commit: the writes of ratings.ledger (a rated
match, a new bot version's reset) with the values they wrote, a row saved by the admin by
re-reading it, a renamed player by its new name. A line is replaced only by a newer
version, (games, updated_at), so changes arriving late or twice leave the newest.

PostgreSQL stays the truth. The index is "ready" only once a rebuild from the ratings table has
finished; until then (empty or flushed Redis) readers answer from SQL and ask for a rebuild, and
changes are not applied.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

import redis
from django.db import transaction
from django.utils import timezone

from arena.models import Player

# `client` is part of this module's interface: the rebuild command and the tests read the index with it.
from common.service_redis import client as client
from common.service_redis import namespace
from ratings.elo import IDLE_GROWTH_PER_DAY, INITIAL_DEVIATION, Z95
from ratings.models import Rating

log = logging.getLogger(__name__)

KINDS: tuple[str, ...] = tuple(str(kind) for kind in Player.Kind.values)
MEMBER_WIDTH = 12
REBUILD_CHUNK = 20_000
# A rebuild re-applies the rows changed since shortly before its snapshot: a change committed while
# the snapshot was read keeps its place even though it reached the old index only.
CATCH_UP_MARGIN = timedelta(minutes=5)
# A rebuild asked for by a reader is asked for again after this long if it never finished.
REBUILD_REQUEST_SECONDS = 600
FIELDS = (
    "player_id",
    "kind",
    "rating",
    "games",
    "provisional_left",
    "updated_at",
    "deviation",
    "rated_at",
    "player__name",
)

_scripts: dict[str, Any] = {}

# KEYS: ready, lines, all, one set per kind. ARGV: (member, kind index, score, games, version, line)
# per player; a line is "games|provisional left|version|deviation|rated at|kind|name".
_APPLY = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local applied = 0
for i = 1, #ARGV, 6 do
  local member, kind, score = ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2]
  local games, version = tonumber(ARGV[i + 3]), tonumber(ARGV[i + 4])
  local newer = true
  local known = redis.call('HGET', KEYS[2], member)
  if known then
    local known_games, _, known_version = string.match(known, '^(%d+)|(%d+)|(%d+)|')
    known_games, known_version = tonumber(known_games), tonumber(known_version)
    newer = games > known_games or (games == known_games and version > known_version)
  end
  if newer then
    redis.call('ZADD', KEYS[3], score, member)
    redis.call('ZADD', KEYS[3 + kind], score, member)
    redis.call('HSET', KEYS[2], member, ARGV[i + 5])
    applied = applied + 1
  end
end
return applied
"""

# KEYS: ready, lines. ARGV: member, name. Only a player already on the board is renamed.
_RENAME = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local known = redis.call('HGET', KEYS[2], ARGV[1])
if not known then return 0 end
local head = string.match(known, '^(%d+|%d+|%d+|[^|]*|[^|]*|[^|]*|)')
redis.call('HSET', KEYS[2], ARGV[1], head .. ARGV[2])
return 1
"""

# The lines of ranks [first, last] of the board KEYS[3], appended to `result` as member, score, line.
# With ARGV[3..6] (now in microseconds, z, growth per day squared, ceiling: ratings.elo's rule), each
# line's 95% interval is worked out as ratings.elo does it (the deviation grown by whole idle days,
# rating -/+ z deviation, to 4 decimals) and, after all the lines, its high and low ends are appended,
# each with ZCOUNT of the players above it: a page and its rank intervals in one call.
_LINES = """
local function add_lines(result, first, last)
  local found = redis.call('ZRANGE', KEYS[3], first, last, 'WITHSCORES')
  local ends = {}
  local now_us = tonumber(ARGV[3])
  for i = 1, #found, 2 do
    local line = redis.call('HGET', KEYS[2], found[i]) or ''
    result[#result + 1] = found[i]
    result[#result + 1] = found[i + 1]
    result[#result + 1] = line
    if now_us then
      local deviation, rated = string.match(line, '^%d+|%d+|%d+|([^|]*)|([^|]*)|')
      local d = tonumber(deviation) or 0
      if rated and rated ~= '' then
        local days = math.floor((now_us - math.floor(tonumber(rated) * 1000000 + 0.5)) / 86400000000)
        if days > 0 then d = math.min(tonumber(ARGV[6]), math.sqrt(d * d + tonumber(ARGV[5]) * days)) end
      end
      local rating = -tonumber(found[i + 1])
      local spread = tonumber(ARGV[4]) * d
      ends[#ends + 1] = string.format('%.4f', rating + spread)
      ends[#ends + 1] = string.format('%.4f', rating - spread)
    end
  end
  for _, e in ipairs(ends) do
    -- A score is minus the rating: the players above the end have a score below its negation.
    local bound = string.sub(e, 1, 1) == '-' and string.sub(e, 2) or ('-' .. e)
    result[#result + 1] = e
    result[#result + 1] = redis.call('ZCOUNT', KEYS[3], '-inf', '(' .. bound)
  end
  return result
end
"""

# KEYS: ready, lines, the board's set. ARGV: first and last rank (0-based), then the interval rule.
# nil when not ready, else {count, first rank, member, score, line, ..., [end, players above, ...]}.
_RANGE = (
    _LINES
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
return add_lines({redis.call('ZCARD', KEYS[3]), tonumber(ARGV[1])}, ARGV[1], ARGV[2])
"""
)

# KEYS: ready, lines, the board's set. ARGV: member, neighbours each side, then the interval rule.
# nil when not ready, else as _RANGE: no line when the member is not on this board.
_AROUND = (
    _LINES
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
local rank = redis.call('ZRANK', KEYS[3], ARGV[1])
if not rank then return {redis.call('ZCARD', KEYS[3]), 0} end
local first = math.max(0, rank - tonumber(ARGV[2]))
return add_lines({redis.call('ZCARD', KEYS[3]), first}, first, rank + tonumber(ARGV[2]))
"""
)

# KEYS: ready, the board's set. ARGV: scores. nil when not ready, else for each score how many
# members have a lower one (ZCOUNT to it, excluded): the players above a rating, in one call.
_COUNT_BELOW = """
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
local counts = {}
for i = 1, #ARGV do
  counts[i] = redis.call('ZCOUNT', KEYS[2], '-inf', '(' .. ARGV[i])
end
return counts
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


def _run(redis_client: redis.Redis, script: str, keys: Sequence[str], args: Sequence[object]) -> Any:
    """Run a Lua script by its digest (EVALSHA), loading it the first time Redis does not know it."""
    if script not in _scripts:
        _scripts[script] = redis_client.register_script(script)
    return _scripts[script](keys=list(keys), args=list(args), client=redis_client)


def _namespace(game: str) -> str:
    # "board2": lines carry the deviation; an index of the older line format is never read.
    return f"{namespace()}:board2:{game}"


@dataclass(frozen=True)
class Keys:
    ready: str
    lines: str
    all: str
    kinds: tuple[str, ...]
    rebuild_requested: str

    def board(self, kind: str | None) -> str:
        return self.all if kind is None else self.kinds[KINDS.index(kind)]

    @property
    def data(self) -> tuple[str, ...]:
        return (self.lines, self.all, *self.kinds)


def keys(game: str) -> Keys:
    base = _namespace(game)
    return Keys(
        ready=f"{base}:ready",
        lines=f"{base}:lines",
        all=f"{base}:all",
        kinds=tuple(f"{base}:{kind}" for kind in KINDS),
        rebuild_requested=f"{base}:rebuild-requested",
    )


def member(player_id: int) -> str:
    return str(player_id).zfill(MEMBER_WIDTH)


def _version(updated_at: datetime) -> int:
    return int(updated_at.timestamp() * 1_000_000)


@dataclass(frozen=True)
class Entry:
    """What the index holds of one rating row."""

    player_id: int
    kind: str
    rating: float
    games: int
    provisional_left: int
    updated_at: datetime
    deviation: float
    rated_at: datetime | None
    name: str

    @classmethod
    def of(cls, row: Rating, name: str) -> Entry:
        return cls(
            row.player_id,
            row.kind,
            row.rating,
            row.games,
            row.provisional_left,
            row.updated_at,
            row.deviation,
            row.rated_at,
            name,
        )

    def args(self) -> list[object]:
        version = _version(self.updated_at)
        rated_at = "" if self.rated_at is None else repr(self.rated_at.timestamp())
        line = f"{self.games}|{self.provisional_left}|{version}|{self.deviation!r}|{rated_at}|{self.kind}|{self.name}"
        return [
            member(self.player_id),
            KINDS.index(self.kind) + 1,
            repr(-float(self.rating)),
            self.games,
            version,
            line,
        ]


def apply(game: str, entries: Sequence[Entry]) -> int:
    """Apply committed rows; returns how many lines moved, -1 when the index is not ready.

    Never raises: a change that cannot reach Redis drops the ready mark when it can, so readers go
    back to SQL until the next rebuild rather than show a stale board.
    """
    redis_client = client()
    if redis_client is None or not entries:
        return 0
    names = keys(game)
    args: list[object] = []
    for entry in entries:
        args += entry.args()
    try:
        return int(_run(redis_client, _APPLY, [names.ready, *names.data], args))
    except redis.RedisError:
        log.exception("leaderboard index of %s not updated; it is rebuilt from the database", game)
        try:
            redis_client.delete(names.ready)
        except redis.RedisError:
            pass
        return 0


def apply_on_commit(game: str, rows: Iterable[Rating], players: Iterable[Player]) -> None:
    """Send rows just written by a rated match to the index once their transaction commits."""
    name_of = {player.id: player.name for player in players}
    entries = [Entry.of(row, name_of[row.player_id]) for row in rows]
    transaction.on_commit(partial(apply, game, entries))


def refresh(row_ids: Sequence[int]) -> None:
    """Re-read rating rows saved outside ratings.ledger (the admin) and apply them."""
    if not row_ids or client() is None:
        return
    by_game: dict[str, list[Entry]] = {}
    for game, *values in Rating.objects.filter(pk__in=row_ids).values_list("game", *FIELDS):
        by_game.setdefault(game, []).append(Entry(*values))
    for game, entries in by_game.items():
        apply(game, entries)


def refresh_on_commit(row_ids: Sequence[int]) -> None:
    transaction.on_commit(partial(refresh, list(row_ids)))


def rename(player_id: int, name: str, games: Iterable[str]) -> None:
    redis_client = client()
    if redis_client is None:
        return
    for game in games:
        names = keys(game)
        try:
            _run(redis_client, _RENAME, [names.ready, names.lines], [member(player_id), name])
        except redis.RedisError:
            log.exception("player %s not renamed on the %s leaderboard", player_id, game)


@dataclass(frozen=True)
class Line:
    rank: int
    player_id: int
    kind: str
    rating: float
    games: int
    provisional_left: int
    deviation: float
    rated_at: datetime | None
    name: str


@dataclass(frozen=True)
class Lines:
    count: int
    lines: list[Line]
    # When asked for (`at`): each line's interval ends as the index worked them out, high then low,
    # each with how many players are above it.
    counted: list[tuple[float, int]] | None = None


def _interval_rule(at: datetime | None) -> list[object]:
    """The scripts' arguments that have them work out the lines' intervals at `at` (none without)."""
    if at is None:
        return []
    micros = (at - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1)
    return [micros, repr(Z95), repr(IDLE_GROWTH_PER_DAY**2), repr(INITIAL_DEVIATION)]


def _lines(found: list[Any], counted: bool) -> Lines | None:
    count, first = int(found[0]), int(found[1])
    width = 3 if not counted else 7  # member, score, line; and two (end, players above)
    shown = (len(found) - 2) // width
    lines = []
    for position in range(shown):
        index = 2 + 3 * position
        raw = found[index + 2].decode()
        if not raw:
            return None  # a member without its line: the index is incomplete
        games, provisional_left, _, deviation, rated_at, kind, name = raw.split("|", 6)
        lines.append(
            Line(
                first + 1 + position,
                int(found[index]),
                kind,
                -float(found[index + 1]),
                int(games),
                int(provisional_left),
                float(deviation),
                datetime.fromtimestamp(float(rated_at), tz=UTC) if rated_at else None,
                name,
            )
        )
    ends = found[2 + 3 * shown :]
    pairs = [(float(ends[i]), int(ends[i + 1])) for i in range(0, len(ends), 2)] if counted else None
    return Lines(count, lines, pairs)


def page_lines(game: str, kind: str | None, offset: int, size: int, at: datetime | None = None) -> Lines | None:
    """The board's size and its lines at [offset, offset + size), or None when not ready. With `at`,
    each line's interval ends at that time, counted in the same call."""
    redis_client = client()
    if redis_client is None:
        return None
    names = keys(game)
    try:
        found = _run(
            redis_client,
            _RANGE,
            [names.ready, names.lines, names.board(kind)],
            [offset, offset + size - 1, *_interval_rule(at)],
        )
    except redis.RedisError:
        log.exception("leaderboard index unreachable; reading from the database")
        return None
    return None if found is None else _lines(found, at is not None)


def around(game: str, kind: str | None, player_id: int, count: int, at: datetime | None = None) -> Lines | None:
    """Lines from `count` above the player to `count` below, best first; no line when the player is
    not on this board. None when the index cannot answer (not ready, unreachable or incomplete).
    With `at`, as `page_lines`."""
    redis_client = client()
    if redis_client is None:
        return None
    names = keys(game)
    try:
        found = _run(
            redis_client,
            _AROUND,
            [names.ready, names.lines, names.board(kind)],
            [member(player_id), count, *_interval_rule(at)],
        )
    except redis.RedisError:
        log.exception("leaderboard index unreachable; reading from the database")
        return None
    return None if found is None else _lines(found, at is not None)


def around_each(game: str, kind: str | None, player_ids: Sequence[int], count: int) -> list[Lines | None] | None:
    """`around` for each of these players, in one round trip (the same script, pipelined): a page of
    players looks its lines up at once, not one call per player. None when the index cannot answer."""
    redis_client = client()
    if redis_client is None:
        return None
    names = keys(game)
    if _AROUND not in _scripts:
        _scripts[_AROUND] = redis_client.register_script(_AROUND)
    script = _scripts[_AROUND]
    try:
        with redis_client.pipeline(transaction=False) as pipe:
            for player_id in player_ids:
                script(
                    keys=[names.ready, names.lines, names.board(kind)],
                    args=[member(player_id), count, *_interval_rule(None)],
                    client=pipe,
                )
            found = pipe.execute()
    except redis.RedisError:
        log.exception("leaderboard index unreachable; reading from the database")
        return None
    return [None if each is None else _lines(each, False) for each in found]


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


def counts_above(game: str, kind: str | None, ratings: Sequence[float]) -> list[int] | None:
    """How many players of the board have a rating above each of `ratings`, in one script (ZCOUNT
    each, one round trip, one reply); None when not ready."""
    redis_client = client()
    if redis_client is None:
        return None
    if not ratings:
        return []
    names = keys(game)
    try:
        # A score is minus the rating: a higher rating is a score below -rating.
        found = _run(
            redis_client, _COUNT_BELOW, [names.ready, names.board(kind)], [repr(-float(rating)) for rating in ratings]
        )
    except redis.RedisError:
        return None
    return None if found is None else [int(count) for count in found]


def rank(game: str, kind: str | None, player_id: int) -> int | None:
    """The player's rank when the index is ready and has them, else None."""
    found = around(game, kind, player_id, 0)
    return found.lines[0].rank if found is not None and found.lines else None


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


# How far back the catch-up sweep reads again before its last run: longer than a rating transaction
# takes from writing `updated_at` to its commit, so no committed row falls between two sweeps.
CATCH_UP_OVERLAP = timedelta(seconds=30)


def _caught_up_key() -> str:
    return f"{namespace()}:board-caught-up"


def catch_up() -> int:
    """Apply again every rating row changed since the last sweep (less an overlap); returns how many.

    The index is sent each change after its commit; a worker killed between the commit and that
    call would leave those players' lines stale. This periodic sweep (`ratings.catch_up_leaderboards`)
    re-reads the rows changed lately, so the index is exact again within a sweep; applying a row
    twice changes nothing, since a line is only replaced by a newer version.
    """
    redis_client = client()
    if redis_client is None:
        return 0
    started = timezone.now()
    mark = _caught_up_key()
    try:
        last = redis_client.get(mark)
    except redis.RedisError:
        log.exception("leaderboard catch-up skipped: Redis did not answer")
        return 0
    applied = 0
    if last is not None:
        since = datetime.fromtimestamp(float(last), tz=started.tzinfo) - CATCH_UP_OVERLAP
        by_game: dict[str, list[Entry]] = {}
        for game, *values in Rating.objects.filter(updated_at__gte=since).values_list("game", *FIELDS):
            by_game.setdefault(game, []).append(Entry(*values))
        for game, entries in by_game.items():
            if apply(game, entries) >= 0:
                applied += len(entries)
    try:
        redis_client.set(mark, repr(started.timestamp()))
    except redis.RedisError:
        log.exception("leaderboard catch-up mark not written")
    return applied


def forget(game: str) -> None:
    """Drop the game's index (tests, and before a rebuild from scratch)."""
    redis_client = client()
    if redis_client is None:
        return
    names = keys(game)
    redis_client.delete(names.ready, names.rebuild_requested, *names.data)


def rebuild(game: str, progress: Callable[[int], None] | None = None) -> int:
    """Rebuild the game's index from the ratings table; returns how many players it holds.

    The index is filled under temporary names and swapped in at once, so readers keep the old one
    (or SQL) until the new one is complete; rows changed meanwhile are applied again after.
    """
    redis_client = client()
    if redis_client is None:
        return 0
    names = keys(game)
    token = uuid.uuid4().hex
    built = Keys(
        ready="",
        lines=f"{names.lines}:{token}",
        all=f"{names.all}:{token}",
        kinds=tuple(f"{key}:{token}" for key in names.kinds),
        rebuild_requested="",
    )
    started = timezone.now()
    total = 0
    try:
        rows = Rating.objects.filter(game=game).order_by().values_list(*FIELDS).iterator(chunk_size=REBUILD_CHUNK)
        chunk: list[Entry] = []
        for values in rows:
            chunk.append(Entry(*values))
            if len(chunk) >= REBUILD_CHUNK:
                total += _write_chunk(redis_client, built, chunk, progress)
                chunk = []
        total += _write_chunk(redis_client, built, chunk, progress)
        swap_keys: list[str] = [names.ready]
        for new, live in zip(built.data, names.data, strict=True):
            swap_keys += [new, live]
        _run(redis_client, _SWAP, swap_keys, [started.isoformat()])
    finally:
        redis_client.delete(*built.data)
    changed = [
        Entry(*values)
        for values in Rating.objects.filter(game=game, updated_at__gte=started - CATCH_UP_MARGIN)
        .order_by()
        .values_list(*FIELDS)
    ]
    for start in range(0, len(changed), REBUILD_CHUNK):
        apply(game, changed[start : start + REBUILD_CHUNK])
    redis_client.delete(names.rebuild_requested)
    return total


def _write_chunk(
    redis_client: redis.Redis, built: Keys, chunk: list[Entry], progress: Callable[[int], None] | None
) -> int:
    if not chunk:
        return 0
    by_board: dict[str, dict[str, float]] = {built.all: {}}
    lines: dict[str, str] = {}
    for entry in chunk:
        name, _, _, _, _, line = entry.args()
        by_board[built.all][str(name)] = -float(entry.rating)
        by_board.setdefault(built.board(entry.kind), {})[str(name)] = -float(entry.rating)
        lines[str(name)] = str(line)
    with redis_client.pipeline(transaction=False) as pipe:
        for board, scores in by_board.items():
            pipe.zadd(board, scores)
        pipe.hset(built.lines, mapping=lines)  # type: ignore[arg-type]  # redis-py's stubs want a Mapping of bytes
        pipe.execute()
    if progress:
        progress(len(chunk))
    return len(chunk)


def ranks(game: str, kind: str | None, player_ids: Sequence[int]) -> dict[int, int] | None:
    """{player id: rank} of those of these players on the board (ZRANK); None when not ready."""
    redis_client = client()
    if redis_client is None:
        return None
    names = keys(game)
    try:
        with redis_client.pipeline(transaction=True) as pipe:
            pipe.exists(names.ready)
            for player_id in player_ids:
                pipe.zrank(names.board(kind), member(player_id))
            ready, *found = pipe.execute()
    except redis.RedisError:
        return None
    if not ready:
        return None
    return {player_id: int(at) + 1 for player_id, at in zip(player_ids, found, strict=True) if at is not None}
