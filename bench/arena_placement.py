"""Placement in the bots' arena: how near its level a new bot's rating is after 5, 10 and 30 rated games,
and whether its 95% interval holds that level, for weak and strong bots alike; TrueSkill and OpenSkill
fed the same games beside it.

The house ladder (`matchmaking.house.ladder()`, read when the benchmark runs) first plays rated games
among itself until its ratings settle (`--warmup` rounds of every ordered pair of rungs, at tables of 2).
Then bots of known strength — rungs of the ladder themselves (`--engines`; by default random, the
noisy-greedy rung nearest to noisy-greedy-30 when the ladder has noisy-greedy rungs, greedy and
search-fast), entered under new names by one account (so they never meet each other) with tables of
`--size` — play through the real matchmaker (`matchmaker.tick`) and match core
(`results.batches.run_match`), in this process, `--repeats` newcomers per engine, one of each engine
at a time, until each has played the last checkpoint's number of rated games.

A newcomer's true level is the rating of the house bot of its engine at that moment. At each checkpoint
(its k-th rated game) the benchmark reads its error, |rating - true level| in points, and whether the
true level lies inside its 95% interval (rating ± 1.959964 deviation, the deviation grown by idle time
as `Rating.deviation_at` grows it); reported per engine and overall: mean and median error, coverage.
Baseline, in the same run: the error at entry (every newcomer starts at 1500), and the ratio to it.

Then every rated match of the run, warm-up included, is read back from the ledger in its order
(`RatingChange` by id; seats and scores from `MatchSeat`, a forfeiter ranked last as the arena ranks
it) and fed to TrueSkill and OpenSkill (Plackett-Luce) as `bench/rating_systems.py` feeds them, on
the Elo scale by the same factors; a newcomer's k-th game is its k-th rated match in ledger order,
its true level the house bot of its engine in the same system after the same games. The scales
differ (a system that squeezes the ladder shows smaller errors in points), so each system's error is
also given as a share of its own house-ladder span at the end (highest rung minus lowest) and that
share times the arena's span: the error on the arena's scale.

    python bench/arena_placement.py [--warmup 20] [--repeats 3] [--size 3] [--checkpoints 5,10,30]
        [--engines E1,E2,...] [--replay-check]

`--replay-check` replays the ledger at the end (`ratings.ledger.verify_ratings`) and stops with its
LedgerMismatch unless every rating and deviation follows exactly. The run stops by itself: each round
of newcomers has a bounded number of matchmaker ticks, and a round whose newcomers the matchmaker
stops seating ends the benchmark with the newcomers still short. Uses its own database
(`<DATABASE_URL name>_bench`), emptied of matches and ratings at the start.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench.rating_systems import Game

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAME = "part-du-chef"
# The default middle newcomer: the noisy-greedy rung whose percentage of random moves is nearest to this.
MIDDLE_NOISE_PERCENT = 30
# Ticks a round of newcomers may take, per game it needs: a newcomer is seated at every tick (placing
# at once, placed after the house bots' patience, which the tick's clock an hour ahead has passed),
# so a round needs about one tick per game; the margin covers ticks that seat only some of them.
TICKS_PER_GAME = 4
# Ticks in a row that seat no newcomer still short of its games before the round is given up.
IDLE_TICKS = 5
ARENA, TRUESKILL, OPENSKILL = "arena", "TrueSkill", "OpenSkill"


def bench_database_url() -> str:
    from bench.trees import database_url

    return database_url("_bench")


@dataclass(frozen=True)
class Reading:
    """One newcomer at one checkpoint, in one rating system."""

    error: float  # |rating - true level| in that system's points
    covered: bool  # the true level inside rating ± Z95 deviation


@dataclass
class Measure:
    """One rating system's readings by engine and checkpoint, and its house-ladder span at the end."""

    name: str
    readings: dict[str, dict[int, list[Reading]]]
    span: float = math.nan

    def all(self, checkpoint: int) -> list[Reading]:
        return [reading for by_games in self.readings.values() for reading in by_games[checkpoint]]

    def mean_error(self, checkpoint: int) -> float:
        return mean_or_nan([reading.error for reading in self.all(checkpoint)])


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--warmup", type=int, default=20, help="rounds of every house pair before the newcomers")
    parser.add_argument("--repeats", type=int, default=3, help="newcomers per engine")
    parser.add_argument("--size", type=int, default=3, help="the table size newcomers enter the arena with")
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
    args = parser.parse_args()
    parsed = parse_checkpoints(args.checkpoints)
    if parsed is None:
        parser.error(f"--checkpoints: positive game counts in ascending order, e.g. 5,10,30, not {args.checkpoints!r}")
    checkpoints: tuple[int, ...] = parsed
    if args.warmup < 0 or args.repeats < 1:
        parser.error("--warmup must be 0 or more and --repeats 1 or more")

    from bench.trees import own_queues

    os.environ.update(DATABASE_URL=bench_database_url(), ARENA_REQUIRE_SERVICES="1")
    own_queues("placement")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from arena.errors import RequestError
    from arena.matches import check_count, create_match, resolve_game
    from arena.models import ArenaEntry, Match, MatchSeat, Player
    from bench.rating_systems import OpenSkill, TrueSkill
    from matchmaking import matchmaker
    from matchmaking.entries import enter_arena
    from matchmaking.house import ladder as house_ladder
    from ratings.elo import INITIAL_RATING, Z95
    from ratings.ledger import verify_ratings
    from ratings.models import Rating, RatingChange
    from results.batches import run_match

    try:
        check_count(resolve_game(GAME), args.size)
    except RequestError as refused:
        parser.error(f"--size {args.size}: {refused}")
    # Read now, not at import: the ladder is a setting and may differ from one run to the next.
    ladder = house_ladder()
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

    def rating_row(player: Player) -> Rating | None:
        return Rating.objects.filter(player=player, game=GAME).first()

    def rating(player: Player) -> float:
        row = rating_row(player)
        return INITIAL_RATING if row is None else float(row.rating)

    started = time.perf_counter()
    for number in range(args.warmup):
        for a in ladder:
            for b in ladder:
                if a != b:
                    ids = [house[a].id, house[b].id]
                    run_match(create_match(game=GAME, kind=Match.Kind.RANKED, player_ids=ids, dispatch=False).id)
        print(f"warm-up round {number + 1}/{args.warmup} ({time.perf_counter() - started:.0f} s)", flush=True)
    print("house ratings after the warm-up:", ", ".join(f"{name} {rating(house[name]):.0f}" for name in ladder))

    owner = User.objects.create_user("bench-owner")
    needed = checkpoints[-1]
    arena = new_measure(ARENA, engines, checkpoints)
    at_entry: dict[str, list[float]] = {engine: [] for engine in engines}
    newcomer_engine: dict[int, str] = {}
    opponents: dict[str, list[str]] = {engine: [] for engine in engines}
    done = 0
    for repeat in range(args.repeats):
        newcomers = {
            engine: Player.objects.create(name=f"bench-{engine}-{repeat}", kind="bot", builtin=engine, owner=owner)
            for engine in engines
        }
        for engine, player in newcomers.items():
            newcomer_engine[player.id] = engine
            at_entry[engine].append(abs(INITIAL_RATING - rating(house[engine])))
            # The entry's table size is the pool it waits in: the matchmaker seats it only at tables of that size.
            enter_arena(player_id=player.id, game=GAME, table_size=args.size, entered_by=owner)
        played = dict.fromkeys(engines, 0)
        ticks = idle = 0
        while min(played.values()) < needed:
            short = [engine for engine in engines if played[engine] < needed]
            if ticks >= TICKS_PER_GAME * needed or idle >= IDLE_TICKS:
                raise SystemExit(
                    f"round {repeat + 1}: after {ticks} ticks ({idle} in a row without a game for them), "
                    + ", ".join(f"{engine} has {played[engine]}/{needed} games" for engine in short)
                )
            ticks += 1
            seated = False
            # An hour ahead: every bot past its placement has waited long enough for the house bots.
            for match_id in matchmaker.tick(timezone.now() + timedelta(hours=1)):
                run_match(match_id)
                seats = list(MatchSeat.objects.filter(match_id=match_id).select_related("player"))
                for engine, player in newcomers.items():
                    if not any(seat.player_id == player.id for seat in seats):
                        continue
                    row = rating_row(player)
                    games = 0 if row is None else row.games
                    seated = seated or played[engine] < needed
                    if repeat == 0 and games <= checkpoints[0]:
                        opponents[engine].append("+".join(s.player.name for s in seats if s.player_id != player.id))
                    if row is not None and games in checkpoints and games > played[engine]:
                        level = rating(house[engine])
                        error = abs(row.rating - level)
                        covered = error <= Z95 * row.deviation_at(timezone.now())
                        arena.readings[engine][games].append(Reading(error, covered))
                    played[engine] = games
                    if games >= needed:
                        ArenaEntry.objects.filter(player=player, active=True).update(active=False)
            idle = 0 if seated else idle + 1
        ArenaEntry.objects.filter(active=True).update(active=False)
        done += sum(played.values())
        print(
            f"newcomers round {repeat + 1}/{args.repeats}: {done}/{needed * len(engines) * args.repeats} "
            f"newcomer games ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    rungs = [house[name] for name in ladder]
    ladder_ratings = [rating(bot) for bot in rungs]
    arena.span = max(ladder_ratings) - min(ladder_ratings)

    # The same games, in ledger order, to TrueSkill and OpenSkill.
    stream = ledger_games()
    measures = [arena]
    for system in (TrueSkill(), OpenSkill()):
        measure = new_measure(system.name, engines, checkpoints)
        counts: dict[int, int] = {}
        for game in stream:
            system.rate(game)
            for player_id in game.players:
                counts[player_id] = counts.get(player_id, 0) + 1
                engine = newcomer_engine.get(player_id, "")
                if engine and counts[player_id] in checkpoints:
                    estimate, deviation = system.estimate(player_id)
                    error = abs(estimate - system.estimate(house[engine].id)[0])
                    measure.readings[engine][counts[player_id]].append(Reading(error, error <= Z95 * deviation))
        levels = [system.estimate(bot.id)[0] for bot in rungs]
        measure.span = max(levels) - min(levels)
        measures.append(measure)

    print()
    print(
        f"{args.repeats} newcomer(s) per engine ({', '.join(engines)}), tables of {args.size}, "
        f"after {args.warmup} warm-up rounds of the ladder {', '.join(ladder)}; {len(stream)} rated matches"
    )
    for engine in engines:
        print(f"first {checkpoints[0]} tables of the first new {engine}: {', '.join(opponents[engine])}")
    print("\nArena: mean |newcomer - house bot of its engine| in rating points, and its ratio to the error at entry\n")
    print(
        "| engine | at entry (baseline) | "
        + " | ".join(f"after {n} games | ratio" for n in checkpoints)
        + " |\n|---|---|"
        + "---|---|" * len(checkpoints)
    )
    for engine in [*engines, "all"]:
        chosen = engines if engine == "all" else [engine]
        base = statistics.fmean(error for name in chosen for error in at_entry[name])
        cells = []
        for n in checkpoints:
            mean = mean_or_nan([r.error for name in chosen for r in arena.readings[name][n]])
            cells.append(f"{fmt(mean)} | {fmt(mean / base if base else math.nan, 2)}")
        print(f"| {engine} | {base:.0f} | {' | '.join(cells)} |")

    print(
        "\nError in each system's points (mean, median) and coverage: the true level inside rating ± 1.96 deviation\n"
    )
    print(
        "| system | engine | "
        + " | ".join(f"after {n}: mean | median | coverage" for n in checkpoints)
        + " |\n|---|---|"
        + "---|---|---|" * len(checkpoints)
    )
    for measure in measures:
        for engine in [*engines, "all"]:
            cells = [
                " | ".join(summary(measure.all(n) if engine == "all" else measure.readings[engine][n]))
                for n in checkpoints
            ]
            print(f"| {measure.name} | {engine} | {' | '.join(cells)} |")

    print(
        "\nOn a common scale: mean error as a share of the system's own house-ladder span (highest rung "
        "minus lowest, at the end), and that share times the arena's span\n"
    )
    print(
        "| system | ladder span | "
        + " | ".join(f"after {n}: points | share of span | on the arena's scale" for n in checkpoints)
        + " |\n|---|---|"
        + "---|---|---|" * len(checkpoints)
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

    if args.replay_check:
        replayed = verify_ratings(GAME)  # raises LedgerMismatch at the first difference
        rows = RatingChange.objects.filter(game=GAME).count()
        print(
            f"ledger replay: the {rows} ledger rows of {len(stream)} matches replay every rating and deviation "
            f"of the {len(replayed)} rated players exactly"
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
