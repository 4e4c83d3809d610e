"""Placement in the bots' arena: how near its level a new bot's rating is after 5, 10 and 30 rated games,
and whether its 95% interval holds that level, for weak and strong bots alike; TrueSkill and OpenSkill
fed the same games beside it.

The house ladder (`matchmaking.house.ladder()`, read when the benchmark runs) first plays rated games
among itself, in this process, until its ratings settle: `--warmup` rounds at tables of
`--warmup-size`, by default the newcomers' `--size` (at 2, every ordered pair of rungs each round;
at more, every set of that many rungs, its seats turned by one each round). The rungs' distances
depend on the table size (search-fast is about 345 points above greedy at tables of 2 and 125 at
tables of 3), and a newcomer's rating settles at its level at the size it plays: a ladder warmed up
at another size measures that difference, not placement (docs/bots-submission.md#placement).

Then bots of known strength — rungs of the ladder themselves (`--engines`; by default random, the
noisy-greedy rung nearest to noisy-greedy-30 when the ladder has noisy-greedy rungs, greedy and
search-fast), entered under new names by one account (so they never meet each other) with tables of
`--size`, `--repeats` newcomers per engine — play through the real matchmaker until each has played
the last checkpoint's number of rated games. Two ways:

- In process (the default): `matchmaker.tick` and the match core (`results.batches.run_match`) run in
  this process, one match at a time, one newcomer of each engine at a time. The ticks' clock steps
  past the bots' patience each tick, so a newcomer past its placement (ARENA_BOT_PLACEMENT_GAMES)
  gets house bots at the next tick.
- `--live`: the arena as users get it. A real Celery worker (concurrency 2) and real Celery beat (the
  matchmaker's tick every ARENA_MATCHMAKING_SECONDS) run on queues of the benchmark's own, their logs
  under var/bench/; every newcomer enters at once and the worker plays their matches, two at a time,
  at the real clock. Past its placement a newcomer meets waiting bots of other accounts, and there are
  none here (the newcomers share one), so it waits ARENA_HOUSE_AFTER_SECONDS_BOTS (10 s) after each
  seating for house bots; `--house-after-seconds` gives worker and beat a shorter wait, and the report
  says which wait was used. The benchmark polls the database every second, printing each newcomer's
  rated games, the slowest one and the time, until every newcomer has its games or `--timeout`
  seconds have passed: then it names the newcomers short, reports what was reached and exits with
  status 1. Worker and beat are stopped and the entries closed whatever happens.

Either way everything is read afterwards from the ledger (`RatingChange` by id), since matches played
at once commit in any order. A newcomer's k-th game is its k-th ledger row, its rating and deviation
then that row's `after` and `deviation_after`. Its true level is the rating of the house bot of its
engine at that moment: that bot's row of the same match if it sat at the table, else its latest row
before, else its rating at the end of the warm-up. At each checkpoint the benchmark reads the error,
|rating - true level| in points, and whether the true level lies inside the 95% interval (rating ±
1.959964 deviation); reported per engine and overall: mean and median error, coverage. Baseline, in
the same run: the error at entry (every newcomer starts at 1500), and the ratio to it.

Then every rated match of the run, warm-up included, is read back from the ledger in its order
(`RatingChange` by id; seats and scores from `MatchSeat`, a forfeiter ranked last as the arena ranks
it) and fed to TrueSkill and OpenSkill (Plackett-Luce) as `bench/rating_systems.py` feeds them, on
the Elo scale by the same factors; a newcomer's k-th game is its k-th rated match in ledger order,
its true level the house bot of its engine in the same system after the same games. The scales
differ (a system that squeezes the ladder shows smaller errors in points), so each system's error is
also given as a share of its own house-ladder span at the end (highest rung minus lowest) and that
share times the arena's span: the error on the arena's scale.

    python bench/arena_placement.py [--warmup 20] [--repeats 3] [--size 3] [--warmup-size N]
        [--checkpoints 5,10,30] [--engines E1,E2,...] [--replay-check] [--shares 0,0.5,1] [--batch]
    python bench/arena_placement.py --live [--timeout 1800] [--house-after-seconds S] [the options above]

Candidate updates on the same games, read the same way: `--shares` rates the whole stream again by the
arena's rule with each of those margin shares (from the warm-up on, so the rungs are on that rule's
scale too; without pins, as bench/rating_systems.py rates, so compare them with share 0.5 in the same
list); `--batch` fits each newcomer's rating at once over its first k games, the opponents as the
ledger rated them (does taking the games one at a time lose anything?).

`--replay-check` replays the ledger at the end (`ratings.ledger.verify_ratings`) and stops with its
LedgerMismatch unless every rating and deviation follows exactly. The run stops by itself: in process
each round of newcomers has a bounded number of matchmaker ticks, and a round whose newcomers the
matchmaker stops seating ends the benchmark with the newcomers still short; live, `--timeout` bounds
the play. Uses its own database (`<DATABASE_URL name>_bench`), emptied of matches and ratings at the
start, and its own queues (`bench.trees.own_queues`).
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from arena.models import Player
    from bench.rating_systems import Game

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAME = "part-du-chef"
# The default middle newcomer: the noisy-greedy rung whose percentage of random moves is nearest to this.
MIDDLE_NOISE_PERCENT = 30
# Ticks a round of newcomers may take, per game it needs: a newcomer is seated at every tick (placing
# at once, placed after the house bots' patience, which the tick's clock has passed: see `play_round`),
# so a round needs about one tick per game; the margin covers ticks that seat only some of them.
TICKS_PER_GAME = 4
# Ticks in a row that seat no newcomer still short of its games before the round is given up.
IDLE_TICKS = 5
ARENA, TRUESKILL, OPENSKILL = "arena", "TrueSkill", "OpenSkill"
# Live: seconds between two looks at the newcomers' games, and between two progress lines.
POLL_SECONDS = 1.0
PROGRESS_SECONDS = 10.0
# Live: seconds the matches still in play when the newcomers are done (or the time is up) may take to
# finish before the worker is stopped, so that the ledger read afterwards holds every game played.
DRAIN_SECONDS = 120.0


def bench_database_url() -> str:
    from bench.trees import database_url

    return database_url("_bench")


# The row of every engine together in the report's tables.
ALL = "all"


@dataclass(frozen=True)
class Reading:
    """One newcomer at one checkpoint, in one rating system."""

    offset: float  # rating - true level, in that system's points: above its level when positive
    covered: bool  # the true level inside rating ± Z95 deviation
    # The share of the offset a posterior mean owes its prior by construction, whatever the games:
    # (INITIAL_RATING - level) (deviation / INITIAL_DEVIATION)² in a Gaussian model (arena only).
    pull: float = math.nan

    @property
    def error(self) -> float:
        return abs(self.offset)


@dataclass(frozen=True)
class Newcomer:
    player_id: int
    name: str
    engine: str
    repeat: int


@dataclass
class Measure:
    """One rating system's readings by engine and checkpoint, and its house-ladder span at the end."""

    name: str
    readings: dict[str, dict[int, list[Reading]]]
    span: float = math.nan

    def all(self, checkpoint: int) -> list[Reading]:
        return [reading for by_games in self.readings.values() for reading in by_games[checkpoint]]

    def at(self, engine: str, checkpoint: int) -> list[Reading]:
        """One engine's readings at a checkpoint, or every engine's for "all"."""
        return self.all(checkpoint) if engine == ALL else self.readings[engine][checkpoint]

    def mean_error(self, checkpoint: int) -> float:
        return mean_or_nan([reading.error for reading in self.all(checkpoint)])


def header(leading: Sequence[str], each: Sequence[str], checkpoints: Sequence[int]) -> str:
    """A Markdown table's header and rule: the leading columns, then `each` (formatted with n) per checkpoint."""
    columns = [*leading, *(column.format(n=n) for n in checkpoints for column in each)]
    return "| " + " | ".join(columns) + " |\n" + "|---" * len(columns) + "|"


def mean_or_nan(values: Sequence[float]) -> float:
    return statistics.fmean(values) if values else math.nan


def new_measure(name: str, engines: Sequence[str], checkpoints: Sequence[int]) -> Measure:
    return Measure(name, {engine: {n: [] for n in checkpoints} for engine in engines})


def parse_checkpoints(text: str) -> tuple[int, ...] | None:
    try:
        checkpoints = tuple(int(n) for n in text.split(","))
    except ValueError:
        return None
    if not checkpoints or list(checkpoints) != sorted(set(checkpoints)) or checkpoints[0] < 1:
        return None
    return checkpoints


def parse_shares(text: str) -> tuple[float, ...] | None:
    """Margin shares from "0,0.5,1"; None if any is not a number from 0 to 1.

    >>> parse_shares("0,0.5,1"), parse_shares(""), parse_shares("0.5,2"), parse_shares("half")
    ((0.0, 0.5, 1.0), (), None, None)
    """
    try:
        shares = tuple(float(part) for part in text.split(",") if part.strip())
    except ValueError:
        return None
    return shares if all(0.0 <= share <= 1.0 for share in shares) else None


def default_engines(ladder: Sequence[str]) -> list[str]:
    """random, the noisy-greedy rung nearest to noisy-greedy-30 (when the ladder has one), greedy, search-fast."""
    from games.part_du_chef.bots import noisy_share

    # In whole percents, so that two rungs as far on either side tie exactly: the fewer random moves wins.
    percents = {name: round(100 * share) for name in ladder if (share := noisy_share(name)) is not None}
    middle = sorted(percents, key=lambda name: (abs(percents[name] - MIDDLE_NOISE_PERCENT), percents[name]))[:1]
    return ["random", *middle, "greedy", "search-fast"]


def summary(readings: Sequence[Reading]) -> tuple[str, str, str]:
    """Mean error, median error, coverage (count/total and %), as table cells."""
    if not readings:
        return "-", "-", "-"
    errors = [reading.error for reading in readings]
    covered = sum(reading.covered for reading in readings)
    coverage = f"{covered}/{len(readings)} ({100.0 * covered / len(readings):.0f}%)"
    return f"{statistics.fmean(errors):.0f}", f"{statistics.median(errors):.0f}", coverage


def fmt(value: float, digits: int = 0) -> str:
    return "-" if math.isnan(value) else f"{value:.{digits}f}"


def warmup_tables(ladder: Sequence[str], size: int, number: int, steps: int | None = None) -> list[tuple[str, ...]]:
    """The tables of warm-up round `number`: every ordered pair of rungs at tables of 2; at larger
    tables every set of `size` rungs, its seats turned by `number`, so that over `size` rounds each rung
    of a set sits in each seat once. With `steps`, only the tables whose rungs lie at most that many
    steps apart in ladder order (a ladder rated where newcomers meet it: among near rungs).

    >>> warmup_tables(["a", "b", "c"], 2, 0)
    [('a', 'b'), ('a', 'c'), ('b', 'a'), ('b', 'c'), ('c', 'a'), ('c', 'b')]
    >>> warmup_tables(["a", "b", "c", "d"], 3, 1)
    [('b', 'c', 'a'), ('b', 'd', 'a'), ('c', 'd', 'a'), ('c', 'd', 'b')]
    >>> warmup_tables(["a", "b", "c", "d"], 3, 0, steps=2)
    [('a', 'b', 'c'), ('b', 'c', 'd')]
    """
    place = {name: i for i, name in enumerate(ladder)}

    def near(table: tuple[str, ...]) -> bool:
        return steps is None or max(place[n] for n in table) - min(place[n] for n in table) <= steps

    if size == 2:
        return [pair for pair in itertools.permutations(ladder, 2) if near(pair)]
    turn = number % size
    return [table[turn:] + table[:turn] for table in itertools.combinations(ladder, size) if near(table)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--warmup", type=int, default=20, help="rounds of every house pair before the newcomers")
    parser.add_argument("--repeats", type=int, default=3, help="newcomers per engine")
    parser.add_argument("--size", type=int, default=3, help="the table size newcomers enter the arena with")
    parser.add_argument(
        "--warmup-size",
        type=int,
        default=None,
        help="the warm-up's table size (default: --size): 2, every ordered pair of rungs each round; more, "
        "every set of that many rungs each round, the seats turned by one each round",
    )
    parser.add_argument(
        "--warmup-steps",
        type=int,
        default=None,
        help="warm up only at tables whose rungs lie at most this many steps apart in ladder order "
        "(default: every table)",
    )
    parser.add_argument(
        "--checkpoints", default="5,10,30", help="rated games after which a newcomer is read, ascending"
    )
    parser.add_argument(
        "--engines",
        default="",
        help="the newcomers' engines, rungs of the house ladder, comma separated "
        "(default: random, the noisy-greedy rung nearest to noisy-greedy-30 if any, greedy, search-fast)",
    )
    parser.add_argument(
        "--replay-check", action="store_true", help="replay the ledger at the end and check every rating"
    )
    parser.add_argument(
        "--shares",
        default="",
        help="margin shares of the arena's rule to rate the same games by as well, from the warm-up on, without "
        "pins (as bench/rating_systems.py rates them), e.g. 0,0.5,1; 0.5 is the arena's own rule without pins",
    )
    parser.add_argument(
        "--batch",
        action="store_true",
        help="also fit each newcomer's rating at once over its first k games (the arena's model, the opponents "
        "as the ledger rated them) instead of game by game",
    )
    parser.add_argument(
        "--live", action="store_true", help="newcomers all at once, played by a real Celery worker and beat"
    )
    parser.add_argument(
        "--timeout", type=float, default=1800.0, help="--live: seconds the newcomers may take to play their games"
    )
    parser.add_argument(
        "--house-after-seconds",
        type=float,
        default=None,
        help="--live: the wait for house bots past placement, for worker and beat "
        "(default: the arena's ARENA_HOUSE_AFTER_SECONDS_BOTS)",
    )
    args = parser.parse_args()
    parsed = parse_checkpoints(args.checkpoints)
    if parsed is None:
        parser.error(f"--checkpoints: positive game counts in ascending order, e.g. 5,10,30, not {args.checkpoints!r}")
    checkpoints: tuple[int, ...] = parsed
    shares = parse_shares(args.shares)
    if shares is None:
        parser.error(f"--shares: numbers from 0 to 1 separated by commas, e.g. 0,0.5,1, not {args.shares!r}")
    if args.warmup < 0 or args.repeats < 1:
        parser.error("--warmup must be 0 or more and --repeats 1 or more")
    if args.warmup_steps is not None and args.warmup_steps < 1:
        parser.error("--warmup-steps must be 1 or more")
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    if args.house_after_seconds is not None and (not args.live or args.house_after_seconds < 0):
        parser.error("--house-after-seconds: 0 or more, with --live (in process the ticks' clock steps past it)")

    from bench.trees import own_queues

    os.environ.update(DATABASE_URL=bench_database_url(), ARENA_REQUIRE_SERVICES="1")
    if args.house_after_seconds is not None:
        # Before the settings load: this process reports the wait that worker and beat (its environment) use.
        os.environ["ARENA_HOUSE_AFTER_SECONDS_BOTS"] = repr(args.house_after_seconds)
    tag = own_queues("placement")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.utils import timezone

    from arena.errors import RequestError
    from arena.matches import check_count, create_match, resolve_game
    from arena.models import Match, Player
    from matchmaking.entries import enter_arena
    from matchmaking.house import ladder as house_ladder
    from matchmaking.house import patience
    from ratings.elo import INITIAL_RATING
    from ratings.ledger import verify_ratings
    from ratings.models import RatingChange
    from results.batches import run_match

    try:
        check_count(resolve_game(GAME), args.size)
    except RequestError as refused:
        parser.error(f"--size {args.size}: {refused}")
    if args.warmup_size is None:
        args.warmup_size = args.size
    try:
        check_count(resolve_game(GAME), args.warmup_size)
    except RequestError as refused:
        parser.error(f"--warmup-size {args.warmup_size}: {refused}")
    # Read now, not at import: the ladder is a setting and may differ from one run to the next.
    ladder = house_ladder()
    if args.warmup_size > len(ladder):
        parser.error(f"--warmup-size {args.warmup_size}: more than the ladder's {len(ladder)} rungs")
    engines = [name for name in args.engines.split(",") if name] if args.engines else default_engines(ladder)
    strangers = [name for name in engines if name not in ladder]
    if strangers:
        parser.error(
            f"--engines: {', '.join(strangers)} not on the house ladder ({', '.join(ladder) or 'empty'}); "
            "a newcomer's true level is the settled rating of the house bot of its engine"
        )
    if len(set(engines)) != len(engines) or not engines:
        parser.error(f"--engines: distinct rungs of the house ladder, not {args.engines!r}")

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE ratings_ratingchange, ratings_rating, arena_arenaentry, arena_matchseat, arena_match CASCADE"
        )
    Player.objects.filter(name__startswith="bench-").delete()
    User.objects.filter(username__startswith="bench-").delete()
    # Each rung's own house bot (the engine's name, no owner), as a deployment's migrations make them for
    # the built-in bots: a rung added to the ladder by settings alone would have none in a fresh database.
    house: dict[str, Player] = {}
    for name in ladder:
        bot, _ = Player.objects.get_or_create(name=name, defaults={"kind": Player.Kind.BOT, "builtin": name})
        if not (bot.is_house_bot and bot.builtin == name):
            raise SystemExit(f"the player named {name!r} is not the house bot of the engine {name}")
        house[name] = bot

    started = time.perf_counter()
    for number in range(args.warmup):
        for table in warmup_tables(ladder, args.warmup_size, number, args.warmup_steps):
            ids = [house[name].id for name in table]
            run_match(create_match(game=GAME, kind=Match.Kind.RANKED, player_ids=ids, dispatch=False).id)
        print(f"warm-up round {number + 1}/{args.warmup} ({time.perf_counter() - started:.0f} s)", flush=True)
    settled = {bot.id: rating(bot) for bot in house.values()}
    print("house ratings after the warm-up:", ", ".join(f"{name} {settled[house[name].id]:.0f}" for name in ladder))

    owner = User.objects.create_user("bench-owner")
    needed = checkpoints[-1]
    at_entry: dict[str, list[float]] = {engine: [] for engine in engines}
    newcomers: list[Newcomer] = []

    def enter(engine: str, repeat: int) -> Newcomer:
        name = f"bench-{engine}-{repeat}"
        player = Player.objects.create(name=name, kind="bot", builtin=engine, owner=owner)
        at_entry[engine].append(abs(INITIAL_RATING - rating(house[engine])))
        # The entry's table size is the pool it waits in: the matchmaker seats it only at tables of that size.
        enter_arena(player_id=player.id, game=GAME, table_size=args.size, entered_by=owner)
        newcomer = Newcomer(player.id, name, engine, repeat)
        newcomers.append(newcomer)
        return newcomer

    short: list[tuple[Newcomer, int]] = []
    wait = patience(people=False)
    if args.live:
        play_started = time.monotonic()
        with celery_stack(tag) as check:
            # One transaction: no newcomer plays before the last one's entry has read its baseline.
            with transaction.atomic():
                for repeat in range(args.repeats):
                    for engine in engines:
                        enter(engine, repeat)
            short = play_live(newcomers, needed, args.timeout, check)
        played = f"{time.monotonic() - play_started:.0f} s"
        placement = int(settings.ARENA_BOT_PLACEMENT_GAMES)
        if needed > placement:
            shortened = "" if args.house_after_seconds is None else ", shortened by --house-after-seconds"
            waited = (
                f"past placement ({placement} games) a newcomer waited {wait:g} s after each seating for house "
                f"bots (ARENA_HOUSE_AFTER_SECONDS_BOTS{shortened})"
            )
        else:
            waited = f"each newcomer's {needed} games within its placement ({placement} games): house bots at once"
        how = f"live: a Celery worker (concurrency 2) and beat, all newcomers at once, played in {played}; {waited}"
    else:
        clock = timezone.now()
        for repeat in range(args.repeats):
            clock = play_round([enter(engine, repeat) for engine in engines], needed, repeat, clock)
            print(f"newcomers round {repeat + 1}/{args.repeats} ({time.perf_counter() - started:.0f} s)", flush=True)
        how = "in process, one match at a time, one newcomer of each engine at a time"

    rungs = [house[name] for name in ladder]
    arena, opponents = read_arena(
        newcomers, engines, {engine: house[engine].id for engine in engines}, settled, checkpoints
    )
    ladder_ratings = [rating(bot) for bot in rungs]
    arena.span = max(ladder_ratings) - min(ladder_ratings)
    stream = ledger_games()
    measures = [arena, *other_systems(stream, newcomers, engines, rungs, house, checkpoints, shares)]
    if args.batch:
        measures.append(batch_fit(newcomers, engines, {engine: house[engine].id for engine in engines}, checkpoints))
        measures[-1].span = arena.span  # the same games and ladder: the arena's own scale

    print()
    print(
        f"{args.repeats} newcomer(s) per engine ({', '.join(engines)}), tables of {args.size}, "
        f"after {args.warmup} warm-up rounds at tables of {args.warmup_size} of the ladder {', '.join(ladder)}"
        + (f" (rungs at most {args.warmup_steps} steps apart)" if args.warmup_steps is not None else "")
        + "; "
        f"{len(stream)} rated matches"
    )
    print(how)
    for engine in engines:
        print(f"first {checkpoints[0]} tables of the first new {engine}: {', '.join(opponents[engine])}")
    if short:
        print(
            f"time up after {args.timeout:.0f} s, newcomers short of {needed} games: "
            + ", ".join(f"{newcomer.name} {games}" for newcomer, games in short)
            + "; the tables hold what was reached"
        )
    report(measures, at_entry, engines, checkpoints)

    if args.replay_check:
        replayed = verify_ratings(GAME)  # raises LedgerMismatch at the first difference
        rows = RatingChange.objects.filter(game=GAME).count()
        print(
            f"ledger replay: the {rows} ledger rows of {len(stream)} matches replay every rating and deviation "
            f"of the {len(replayed)} rated players exactly"
        )
    if short:
        raise SystemExit(f"{len(short)} newcomer(s) short of {needed} games after {args.timeout:.0f} s")


def rating(player: Player) -> float:
    from ratings.elo import INITIAL_RATING
    from ratings.models import Rating

    row = Rating.objects.filter(player=player, game=GAME).first()
    return INITIAL_RATING if row is None else float(row.rating)


def games_of(newcomers: Sequence[Newcomer]) -> dict[int, int]:
    """Each newcomer's rated games so far (0 before its first)."""
    from ratings.models import Rating

    rows = Rating.objects.filter(game=GAME, player_id__in=[newcomer.player_id for newcomer in newcomers])
    games = dict(rows.values_list("player_id", "games"))
    return {newcomer.player_id: games.get(newcomer.player_id, 0) for newcomer in newcomers}


def play_round(newcomers: Sequence[Newcomer], needed: int, repeat: int, clock: datetime) -> datetime:
    """In process: tick and play each match created until every newcomer of the round has its games.

    The ticks run on a clock of their own, from `clock` (returned as it ends, for the next round): each
    tick a bot's patience and a second after the last, for a bot past its placement waits that long
    from its last seating, which the tick dates by its own clock. The clock keeps well within a day
    of the real one: deviations grow with whole idle days, and the placing bots' brackets with them.
    """
    from django.utils import timezone

    from arena.models import ArenaEntry, MatchSeat
    from matchmaking import matchmaker
    from matchmaking.house import patience
    from results.batches import run_match

    played = dict.fromkeys((newcomer.player_id for newcomer in newcomers), 0)
    step = timedelta(seconds=patience(people=False) + 1.0)
    ticks = idle = 0
    while min(played.values()) < needed:
        if ticks >= TICKS_PER_GAME * needed or idle >= IDLE_TICKS:
            raise SystemExit(
                f"round {repeat + 1}: after {ticks} ticks ({idle} in a row without a game for them), "
                + ", ".join(
                    f"{newcomer.engine} has {played[newcomer.player_id]}/{needed} games"
                    for newcomer in newcomers
                    if played[newcomer.player_id] < needed
                )
            )
        ticks += 1
        seated = False
        clock = max(clock + step, timezone.now())
        for match_id in matchmaker.tick(clock):
            run_match(match_id)
            seats = set(MatchSeat.objects.filter(match_id=match_id).values_list("player_id", flat=True))
            at_table = [newcomer for newcomer in newcomers if newcomer.player_id in seats]
            for player_id, games in games_of(at_table).items():
                seated = seated or played[player_id] < needed
                played[player_id] = games
                if games >= needed:
                    ArenaEntry.objects.filter(player_id=player_id, active=True).update(active=False)
        idle = 0 if seated else idle + 1
    ArenaEntry.objects.filter(active=True).update(active=False)
    return clock


@contextmanager
def celery_stack(tag: str) -> Iterator[Callable[[], None]]:
    """A real Celery worker and beat on the benchmark's queues `tag`, as bench/arena_newcomer.py runs
    them; yields a check that stops the benchmark when either has died. On the way out, whatever
    happened, the arena's entries are closed and both processes stopped: nothing keeps playing."""
    from arena.models import ArenaEntry
    from bench.trees import start_celery, stop, stop_if_dead

    env = dict(os.environ)
    processes: list[tuple[str, subprocess.Popen[bytes], Path]] = []
    try:
        for role, label in (("beat", "celery beat"), ("worker", "the worker")):
            processes.append((label, *start_celery(role, tag, env)))

        def check() -> None:
            for label, process, log in processes:
                stop_if_dead(process, label, log)

        yield check
    finally:
        ArenaEntry.objects.filter(active=True).update(active=False)
        for _, process, _ in processes:
            stop(process, timeout_s=20)


def play_live(
    newcomers: Sequence[Newcomer], needed: int, timeout: float, check: Callable[[], None]
) -> list[tuple[Newcomer, int]]:
    """Wait, polling the database, until every newcomer has `needed` rated games or `timeout` seconds
    have passed; then let the matches in play finish. Returns the newcomers short of their games."""
    from arena.models import ArenaEntry, Match

    started = time.monotonic()
    shown = -math.inf
    done: set[int] = set()
    while True:
        check()
        games = games_of(newcomers)
        # A newcomer with its games leaves the arena: its further games would only cost the others time.
        finished = [player_id for player_id, count in games.items() if count >= needed and player_id not in done]
        if finished:
            ArenaEntry.objects.filter(player_id__in=finished, active=True).update(active=False)
            done.update(finished)
        elapsed = time.monotonic() - started
        over = len(done) == len(newcomers) or elapsed > timeout
        if over or elapsed - shown >= PROGRESS_SECONDS:
            shown = elapsed
            slowest = min(newcomers, key=lambda newcomer: games[newcomer.player_id])
            counts = ", ".join(
                f"{newcomer.name.removeprefix('bench-')} {games[newcomer.player_id]}" for newcomer in newcomers
            )
            print(
                f"live {elapsed:.0f} s: rated games {counts} (of {needed}); slowest {slowest.name} "
                f"{games[slowest.player_id]}",
                flush=True,
            )
        if over:
            break
        time.sleep(POLL_SECONDS)
    ArenaEntry.objects.filter(active=True).update(active=False)
    deadline = time.monotonic() + DRAIN_SECONDS
    while Match.objects.filter(status__in=[Match.Status.QUEUED, Match.Status.RUNNING]).exists():
        if time.monotonic() > deadline:
            print(f"matches still in play after {DRAIN_SECONDS:.0f} s: the ledger holds those finished", flush=True)
            break
        check()
        time.sleep(POLL_SECONDS)
    games = games_of(newcomers)
    return [(newcomer, games[newcomer.player_id]) for newcomer in newcomers if games[newcomer.player_id] < needed]


def read_arena(
    newcomers: Sequence[Newcomer],
    engines: Sequence[str],
    house: dict[str, int],
    settled: dict[int, float],
    checkpoints: Sequence[int],
) -> tuple[Measure, dict[str, list[str]]]:
    """The arena's readings from the ledger, and the first tables of each engine's first newcomer.

    `house`: the house bot of each engine; `settled`: the house bots' ratings at the end of the warm-up.
    Rows are read in id order: the order in which the ratings committed, whatever order matches played in.
    """
    from arena.models import MatchSeat
    from ratings.elo import INITIAL_DEVIATION, INITIAL_RATING, Z95
    from ratings.models import RatingChange

    engine_of = {newcomer.player_id: newcomer.engine for newcomer in newcomers}
    rows = list(
        RatingChange.objects.filter(game=GAME, player_id__in=[*engine_of, *house.values()])
        .order_by("id")
        .values_list("match_id", "player_id", "after", "deviation_after")
    )
    # A house bot at the newcomer's own table: its level after that match, as the newcomer's rating is,
    # whichever of the two rows the commit wrote first.
    same_match = {(match_id, player_id): after for match_id, player_id, after, _ in rows}
    level = dict(settled)
    counts = dict.fromkeys(engine_of, 0)
    firsts: dict[int, list[int]] = {player_id: [] for player_id in engine_of}
    arena = new_measure(ARENA, engines, checkpoints)
    for match_id, player_id, after, deviation in rows:
        engine = engine_of.get(player_id)
        if engine is None:
            level[player_id] = after
            continue
        counts[player_id] += 1
        games = counts[player_id]
        if games <= checkpoints[0]:
            firsts[player_id].append(match_id)
        if games in checkpoints:
            if deviation is None:
                raise SystemExit(f"ledger row of match {match_id} without a deviation for newcomer {player_id}")
            truth = same_match.get((match_id, house[engine]), level[house[engine]])
            offset = after - truth
            pull = (INITIAL_RATING - truth) * (deviation / INITIAL_DEVIATION) ** 2
            arena.readings[engine][games].append(Reading(offset, abs(offset) <= Z95 * deviation, pull))

    firsts_of = {newcomer.engine: firsts[newcomer.player_id] for newcomer in newcomers if newcomer.repeat == 0}
    tables: dict[int, list[tuple[int, str]]] = {}
    seats = MatchSeat.objects.filter(match_id__in=[m for ids in firsts_of.values() for m in ids]).order_by("seat")
    for match_id, player_id, name in seats.values_list("match_id", "player_id", "player__name"):
        tables.setdefault(match_id, []).append((player_id, name))
    opponents = {
        newcomer.engine: [
            "+".join(name for player_id, name in tables[match_id] if player_id != newcomer.player_id)
            for match_id in firsts_of[newcomer.engine]
        ]
        for newcomer in newcomers
        if newcomer.repeat == 0
    }
    return arena, opponents


def other_systems(
    stream: Sequence[Game],
    newcomers: Sequence[Newcomer],
    engines: Sequence[str],
    rungs: Sequence[Player],
    house: dict[str, Player],
    checkpoints: Sequence[int],
    shares: Sequence[float] = (),
) -> list[Measure]:
    """TrueSkill and OpenSkill fed the same games, in ledger order, read as the arena is read; and the
    arena's rule with each of `shares` as its margin share, without pins."""
    from bench.rating_systems import Arena, OpenSkill, System, TrueSkill
    from ratings.elo import Z95

    newcomer_engine = {newcomer.player_id: newcomer.engine for newcomer in newcomers}
    measures = []
    systems: list[System] = [TrueSkill(), OpenSkill()]
    for share in shares:
        candidate = Arena(share=share)
        candidate.name = f"arena without pins, margin share {share:g}"
        systems.append(candidate)
    for system in systems:
        measure = new_measure(system.name, engines, checkpoints)
        counts: dict[int, int] = {}
        for game in stream:
            system.rate(game)
            for player_id in game.players:
                counts[player_id] = counts.get(player_id, 0) + 1
                engine = newcomer_engine.get(player_id, "")
                if engine and counts[player_id] in checkpoints:
                    estimate, deviation = system.estimate(player_id)
                    offset = estimate - system.estimate(house[engine].id)[0]
                    reading = Reading(offset, abs(offset) <= Z95 * deviation)
                    measure.readings[engine][counts[player_id]].append(reading)
        levels = [system.estimate(bot.id)[0] for bot in rungs]
        measure.span = max(levels) - min(levels)
        measures.append(measure)
    return measures


def batch_fit(
    newcomers: Sequence[Newcomer], engines: Sequence[str], house: dict[str, int], checkpoints: Sequence[int]
) -> Measure:
    """Each newcomer's rating fitted at once over its first k games, for each checkpoint k: the arena's
    model (the pairs' scores by its rule and weights, the prior 1500 ± 350), the opponents at the ratings
    and deviations the ledger rated them with, the maximum of the posterior by Newton's method. The same
    information as the game-by-game update, without its one pass: if the update lost what the games
    say by taking them one at a time, this would place the newcomers better."""
    from arena.models import MatchSeat
    from ratings import elo
    from ratings.models import RatingChange

    engine_of = {newcomer.player_id: newcomer.engine for newcomer in newcomers}
    rows = list(
        RatingChange.objects.filter(game=GAME)
        .order_by("id")
        .values_list("match_id", "player_id", "before", "deviation_before", "after", "rule")
    )
    newcomer_matches: dict[int, list[int]] = {player_id: [] for player_id in engine_of}
    rated: dict[int, dict[int, tuple[float, float]]] = {}
    level: dict[int, float] = {}
    levels_at: dict[tuple[int, int], float] = {}
    rules: dict[int, int] = {}
    for match_id, player_id, before, deviation, after, rule in rows:
        known = deviation if deviation is not None else elo.INITIAL_DEVIATION
        rated.setdefault(match_id, {})[player_id] = (before, known)
        rules[match_id] = rule
        if player_id in engine_of:
            newcomer_matches[player_id].append(match_id)
            engine = engine_of[player_id]
            # Its engine's house bot at that moment, as read_arena reads it.
            levels_at[(player_id, len(newcomer_matches[player_id]))] = level.get(house[engine], math.nan)
        else:
            level[player_id] = after
    seats: dict[int, dict[int, tuple[bool, float]]] = {}
    wanted = [match_id for ids in newcomer_matches.values() for match_id in ids]
    for match_id, player_id, score, forfeited in MatchSeat.objects.filter(match_id__in=wanted).values_list(
        "match_id", "player_id", "score", "forfeited"
    ):
        seats.setdefault(match_id, {})[player_id] = (forfeited, float(score or 0))

    measure = new_measure("arena, fitted at once", engines, checkpoints)
    for player_id, engine in engine_of.items():
        matches = newcomer_matches[player_id]
        for k in checkpoints:
            if len(matches) < k:
                continue
            pairs = []
            for match_id in matches[:k]:
                table = seats[match_id]
                weight = elo.pair_weight(len(table))
                for other, key in table.items():
                    if other != player_id:
                        pair = elo.pair_score(table[player_id], key, len(table), rule=rules[match_id])
                        pairs.append((rated[match_id][other], weight, pair))
            estimate, deviation = fit(pairs)
            truth = levels_at[(player_id, k)]
            # The house bot's row of a game it shared with the newcomer comes after or before the
            # newcomer's; read_arena takes the row of the same match, this the latest before: the same
            # within a pinned placement game, a step apart otherwise.
            offset = estimate - truth
            measure.readings[engine][k].append(Reading(offset, abs(offset) <= elo.Z95 * deviation))
    return measure


def fit(pairs: Sequence[tuple[tuple[float, float], float, float]]) -> tuple[float, float]:
    """The maximum of the posterior of one rating from the prior (INITIAL_RATING, INITIAL_DEVIATION) and
    its pairs ((opponent rating, deviation), weight, score), and the deviation from its curvature.

    >>> fit([])
    (1500.0, 350.0)
    >>> rating, deviation = fit([((1500.0, 30.0), 1.0, 1.0)] * 3 + [((1500.0, 30.0), 1.0, 0.0)])
    >>> round(rating), round(deviation)
    (1646, 167)
    """
    from ratings import elo

    q = math.log(10.0) / 400.0
    rating = elo.INITIAL_RATING
    prior = 1.0 / elo.INITIAL_DEVIATION**2
    information = prior
    for _ in range(100):
        slope = -(rating - elo.INITIAL_RATING) * prior
        information = prior
        for (opponent, spread), weight, score in pairs:
            flat = elo.g(spread)
            # The expectation of rate_game: the opponent's uncertainty alone flattens it.
            expected = elo.win_probability((rating, 0.0), (opponent, spread))
            slope += q * weight * flat * (score - expected)
            information += q * q * weight * flat * flat * expected * (1.0 - expected)
        step = max(-200.0, min(200.0, slope / information))
        rating += step
        if abs(step) < 1e-6:
            break
    return rating, 1.0 / math.sqrt(information)


def report(
    measures: Sequence[Measure], at_entry: dict[str, list[float]], engines: Sequence[str], checkpoints: Sequence[int]
) -> None:
    """The tables: the arena's error against its baseline, every system's error and coverage, the common scale."""
    from django.conf import settings

    arena = measures[0]
    print("\nArena: mean |newcomer - house bot of its engine| in rating points, and its ratio to the error at entry\n")
    print(header(["engine", "at entry (baseline)"], ["after {n} games", "ratio"], checkpoints))
    for engine in [*engines, ALL]:
        chosen = engines if engine == ALL else [engine]
        base = statistics.fmean(error for name in chosen for error in at_entry[name])
        cells = []
        for n in checkpoints:
            mean = mean_or_nan([r.error for r in arena.at(engine, n)])
            cells.append(f"{fmt(mean)} | {fmt(mean / base if base else math.nan, 2)}")
        print(f"| {engine} | {base:.0f} | {' | '.join(cells)} |")

    print(
        "\nArena: mean signed error (rating - house bot of its engine): noise averages out over the newcomers "
        "of an engine, a bias does not. Beside it the prior's pull, (1500 - level) (deviation / 350)²: what a "
        "posterior mean leans toward its prior by construction, the bias the update is meant to have\n"
    )
    print(header(["engine"], ["after {n} games: signed", "prior's pull"], checkpoints))
    for engine in [*engines, ALL]:
        cells = []
        for n in checkpoints:
            readings = arena.at(engine, n)
            for value in (mean_or_nan([r.offset for r in readings]), mean_or_nan([r.pull for r in readings])):
                cells.append("-" if math.isnan(value) else f"{value:+.0f}")
        print(f"| {engine} | " + " | ".join(cells) + " |")

    print(
        "\nError in each system's points (mean, median) and coverage: the true level inside rating ± 1.96 deviation\n"
    )
    print(header(["system", "engine"], ["after {n}: mean", "median", "coverage"], checkpoints))
    for measure in measures:
        for engine in [*engines, ALL]:
            cells = [" | ".join(summary(measure.at(engine, n))) for n in checkpoints]
            print(f"| {measure.name} | {engine} | {' | '.join(cells)} |")

    print(
        "\nOn a common scale: mean error as a share of the system's own house-ladder span (highest rung "
        "minus lowest, at the end), and that share times the arena's span\n"
    )
    print(
        header(["system", "ladder span"], ["after {n}: points", "share of span", "on the arena's scale"], checkpoints)
    )
    for measure in measures:
        cells = []
        for n in checkpoints:
            share = measure.mean_error(n) / measure.span if measure.span > 0 else math.nan
            cells.append(f"{fmt(measure.mean_error(n))} | {fmt(share, 3)} | {fmt(share * arena.span)}")
        print(f"| {measure.name} | {measure.span:.0f} | {' | '.join(cells)} |")
    placement = int(settings.ARENA_BOT_PLACEMENT_GAMES)
    at = placement if placement in checkpoints else checkpoints[-1]
    trueskill = next(measure for measure in measures if measure.name == TRUESKILL)
    on_scale = trueskill.mean_error(at) / trueskill.span * arena.span if trueskill.span > 0 else math.nan
    ratio = arena.mean_error(at) / on_scale if on_scale > 0 else math.nan
    print(
        f"\narena / TrueSkill, mean error after {at} games on the arena's scale: {fmt(arena.mean_error(at))} / "
        f"{fmt(on_scale)} = {fmt(ratio, 2)}"
    )


def ledger_games() -> list[Game]:
    """Every rated match of the game in ledger order (a match at its first ledger row, as ratings.ledger
    replays it), its players in seat order. The arena ranks a forfeiter last whatever its total, and
    forfeiters among themselves by total: a forfeiter's total is put below every total of its table."""
    from arena.models import MatchSeat
    from bench.rating_systems import Game
    from ratings.models import RatingChange

    order: dict[int, None] = {}
    for match_id in RatingChange.objects.filter(game=GAME).order_by("id").values_list("match_id", flat=True):
        order.setdefault(match_id, None)
    seats: dict[int, list[tuple[int, int, bool]]] = {}
    rows = MatchSeat.objects.filter(match_id__in=list(order)).order_by("match_id", "seat")
    for match_id, player_id, score, forfeited in rows.values_list("match_id", "player_id", "score", "forfeited"):
        seats.setdefault(match_id, []).append((player_id, score or 0, forfeited))
    games = []
    for match_id in order:
        table = seats[match_id]
        totals = [score for _, score, _ in table]
        below = max(totals) - min(totals) + 1
        players = tuple(player_id for player_id, _, _ in table)
        games.append(Game(players, tuple(score - below if out else score for _, score, out in table)))
    return games


if __name__ == "__main__":
    main()
