"""Luck-corrected comparisons against duplicate deals alone, on the same deals in one run.

For each pair of bots, `--deals` duplicate deals are played once (each bot in every seat against
`--against`), and each deal gives two differences A - B: the plain one (duplicate deals alone) and
the one with the luck corrected (games.part_du_chef.control_variates, the comparison's baseline).
Both come from the very same games, so their ratio is measured in one invocation whatever the
machine's load:

* the variance per deal of each, and their ratio (how many times fewer deals the corrected one needs);
* the same ratio with the corrections of an earlier baseline (`--previous`, by default the one before
  today's), on the same games;
* the median number of deals the sequential test (`comparison.Stopping`, up to `--deals`) plays
  before its verdict, over `--orders` random orders of the deals played, plain and corrected, and
  how often the two verdicts agree;
* with `--chance`, the same with the chance corrections (each pizza's ring) weighted in as well;
* the cost: the corrections' time per game against the game's own time, in this process;
* with `--draws R`, where the variance left comes from: the first `--draws-deals` deals played again
  R times each with other draws of every bot (the same deal, each seat's bot seeded otherwise), and
  the variance split into the deal's own share (the variance of a deal's mean over its draws, less
  what its draws add) and the draws' share. Every correction has mean zero whatever the deal, so no
  correction of the decisions removes the deal's share: plain over it is the most any value
  function could give.

A self-comparison (`--self-deals`, the first pair's A against itself with other seeds) checks that
the corrected mean difference's 95% interval contains 0, and `--self-runs` sequential
self-comparisons count how often the test says "better" (it must stay at or under 5%).

    python bench/variance_reduction.py [--deals 200] [--orders 200] [--self-deals 0] [--self-runs 0] [--chance]
        [--draws 0] [--draws-deals 40] [--previous game-rollout/1]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.part_du_chef import control_variates as cv  # noqa: E402
from games.part_du_chef.comparison import Stopping, seatings  # noqa: E402
from games.part_du_chef.seating import NamedBot, play_lineup, resolve_bot  # noqa: E402

PAIRS = (
    ("noisy-greedy-10", "noisy-greedy-20"),
    ("greedy", "noisy-greedy-10"),
    ("search-fast", "greedy"),
)
# Seeds far from those the baseline's weights were fitted on (control_variates.BASELINE).
FIRST_SEED = 100_000
# A's other seeds in a self-comparison: the same bot, other draws.
SELF_OFFSET = 7_919
# The bots' seeds of the r-th replay of a deal (--draws): far from any seat's seed of the run's deals.
DRAWS_OFFSET = 1_000_003


@dataclass
class Deal:
    plain: float
    corrected: float
    previous: float  # corrected under the earlier baseline (--previous); 0 where not asked for
    with_chance: float | None


def play_deal(
    a: NamedBot,
    b: NamedBot,
    against: list[NamedBot],
    seed: int,
    chance: bool,
    clock: dict[str, float],
    previous_baseline: cv.Baseline | None = None,
) -> Deal:
    players = len(against) + 1
    sides: list[tuple[float, float, float, float]] = []
    for bot in (a, b):
        plain = corrected = previous = chanced = 0.0
        for seat, lineup in enumerate(seatings(bot, against)):
            start = time.perf_counter()
            played = play_lineup(lineup, seed, with_record=False)
            clock["play"] += time.perf_counter() - start
            names = [policy or "" for policy in played.policies]
            start = time.perf_counter()
            result = cv.correct(seed, players, names, played.history, seat)
            clock["correct"] += time.perf_counter() - start
            clock["games"] += 1
            plain += result.score
            corrected += result.corrected
            if previous_baseline is not None:
                start = time.perf_counter()
                earlier = cv.correct(seed, players, names, played.history, seat, baseline=previous_baseline)
                previous += earlier.corrected
                clock["previous"] += time.perf_counter() - start
            if chance:
                start = time.perf_counter()
                chanced += cv.correct(seed, players, names, played.history, seat, baseline=cv.WITH_CHANCE).corrected
                clock["chance"] += time.perf_counter() - start
        sides.append((plain / players, corrected / players, previous / players, chanced / players))
    (pa, ca, ea, xa), (pb, cb, eb, xb) = sides
    return Deal(pa - pb, ca - cb, ea - eb, (xa - xb) if chance else None)


def other_draws(bot: NamedBot, replay: int) -> NamedBot:
    """The same bot with other draws: its seat's seed moved by the replay's offset (replay 0: itself)."""
    if replay == 0:
        return bot
    make = bot.make
    return replace(bot, make=lambda seed: make(seed + replay * DRAWS_OFFSET))


@dataclass(frozen=True)
class Split:
    """A series' variance per deal, split into the deal's own share and its draws' share."""

    total: float
    draws: float  # the mean over deals of the variance between a deal's replays
    deal: float  # the variance of a deal's mean over its replays, less what its draws add to it

    @classmethod
    def of(cls, replays: list[list[float]]) -> Split:
        count = len(replays[0])
        draws = statistics.fmean(statistics.variance(values) for values in replays)
        means = [statistics.fmean(values) for values in replays]
        flat = [value for values in replays for value in values]
        return cls(statistics.variance(flat), draws, statistics.variance(means) - draws / count)


def draws_split(
    a: NamedBot, b: NamedBot, against: list[NamedBot], deals: int, replays: int, clock: dict[str, float]
) -> tuple[Split, Split]:
    """Plain and corrected: the first `deals` deals of the run, each played `replays` times with other draws."""
    plain: list[list[float]] = []
    corrected: list[list[float]] = []
    for i in range(deals):
        played = [
            play_deal(
                other_draws(a, r), other_draws(b, r), [other_draws(o, r) for o in against], FIRST_SEED + i, False, clock
            )
            for r in range(replays)
        ]
        plain.append([d.plain for d in played])
        corrected.append([d.corrected for d in played])
        print(f"  draws: deal {i + 1}/{deals}", file=sys.stderr, end="\r", flush=True)
    print(file=sys.stderr)
    return Split.of(plain), Split.of(corrected)


def deals_to_verdict(diffs: list[float], stopping: Stopping) -> tuple[int, str | None]:
    for count in range(stopping.min_deals, len(diffs) + 1):
        decided = stopping.decide(diffs[:count])
        if decided is not None:
            return count, decided + ("+" if decided == "better" and sum(diffs[:count]) > 0 else "")
    return len(diffs), None


def sequential(
    series: dict[str, list[float]], orders: int, rng: random.Random
) -> dict[str, tuple[float, list[str | None]]]:
    """Per series: the median deals to a verdict over random orders of the same deals, and the verdicts."""
    n = len(next(iter(series.values())))
    stopping = Stopping(max_deals=n)
    out: dict[str, tuple[float, list[str | None]]] = {name: (0.0, []) for name in series}
    counts: dict[str, list[int]] = {name: [] for name in series}
    for _ in range(orders):
        order = list(range(n))
        rng.shuffle(order)
        for name, values in series.items():
            count, decided = deals_to_verdict([values[i] for i in order], stopping)
            counts[name].append(count)
            out[name][1].append(decided)
    return {name: (statistics.median(counts[name]), out[name][1]) for name in series}


def mean_ci(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    return mean, 1.96 * math.sqrt(statistics.variance(values) / len(values))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals per pair (default 200)")
    parser.add_argument("--against", default="greedy,random", help="the opponents (default greedy,random)")
    parser.add_argument("--pairs", default=",".join(f"{a}:{b}" for a, b in PAIRS), help="A:B,A:B...")
    parser.add_argument("--orders", type=int, default=200, help="random orders of the deals for the sequential test")
    parser.add_argument(
        "--previous",
        default=cv.GAME_ROLLOUT_1.name,
        choices=sorted(name for name in cv.BASELINES if name != cv.BASELINE.name),
        help=f"the earlier baseline measured beside today's (default {cv.GAME_ROLLOUT_1.name})",
    )
    parser.add_argument("--chance", action="store_true", help="also weigh in the chance corrections (measured)")
    parser.add_argument("--draws", type=int, default=0, help="replays of a deal with other draws (0: none; 2 or more)")
    parser.add_argument("--draws-deals", type=int, default=40, help="deals replayed with --draws (default 40)")
    parser.add_argument("--self-bot", default=None, help="the bot compared with itself (default: the first pair's A)")
    parser.add_argument("--self-deals", type=int, default=0, help="deals of that bot against itself, other seeds")
    parser.add_argument("--self-runs", type=int, default=0, help="sequential self-comparisons, 30 deals at most")
    parser.add_argument(
        "--self-first",
        type=int,
        default=2 * FIRST_SEED,
        help="the first deal's seed of --self-deals (a count split over processes takes seeds far apart)",
    )
    parser.add_argument(
        "--self-seed",
        type=int,
        default=3 * FIRST_SEED,
        help="the first deal's seed of the self-comparisons (runs split over processes take seeds far apart)",
    )
    args = parser.parse_args()
    if args.deals < 3 or args.orders < 1 or args.self_deals < 0 or args.self_runs < 0:
        parser.error("--deals must be 3 or more, --orders 1 or more, --self-deals and --self-runs 0 or more")
    if args.draws == 1 or args.draws < 0 or args.draws_deals < 2:
        parser.error("--draws must be 0 (none) or 2 or more, --draws-deals 2 or more")
    against = [resolve_bot(name, []) for name in args.against.split(",") if name]
    previous_baseline = cv.BASELINES[args.previous]
    pairs = [tuple(pair.split(":", 1)) for pair in args.pairs.split(",") if pair]
    if any(len(pair) != 2 for pair in pairs) or not (pairs or args.self_bot):
        parser.error("--pairs takes A:B pairs, comma-separated (or none, with --self-bot)")
    load = os.getloadavg()[0]
    print(f"# luck-corrected comparisons (baseline {cv.BASELINE.name}), against {args.against}, load {load:.2f}")
    print()
    header = "| pair | deals | plain mean ± 95% | corrected mean ± 95% | var plain | var corrected | ratio |"
    header += f" ratio, {previous_baseline.name} |"
    header += " median deals plain | median deals corrected |"
    header += f" median deals, {previous_baseline.name} | same verdict | corrections ms/game | game ms/game |"
    print(header)
    print("|---" * (header.count("|") - 1) + "|")
    rng = random.Random(1)
    splits: list[tuple[str, Split, Split]] = []
    for a_name, b_name in pairs:
        a, b = resolve_bot(a_name, []), resolve_bot(b_name, [])
        clock = {"play": 0.0, "correct": 0.0, "previous": 0.0, "chance": 0.0, "games": 0.0}
        deals: list[Deal] = []
        for i in range(args.deals):
            deals.append(play_deal(a, b, against, FIRST_SEED + i, args.chance, clock, previous_baseline))
            print(f"  {a_name} vs {b_name}: deal {i + 1}/{args.deals}", file=sys.stderr, end="\r", flush=True)
        print(file=sys.stderr)
        plain = [d.plain for d in deals]
        corrected = [d.corrected for d in deals]
        previous = [d.previous for d in deals]
        series = {"plain": plain, "corrected": corrected, "previous": previous}
        if args.chance:
            series["with chance"] = [d.with_chance or 0.0 for d in deals]
        seq = sequential(series, args.orders, rng)
        same = sum(x == y for x, y in zip(seq["plain"][1], seq["corrected"][1], strict=True)) / args.orders
        vp, vc = statistics.variance(plain), statistics.variance(corrected)
        ratio = f"{vp / vc:.2f}" if vc > 0 else "-"
        ve = statistics.variance(previous)
        ratio_previous = f"{vp / ve:.2f}" if ve > 0 else "-"
        pm, pw = mean_ci(plain)
        cm, cw = mean_ci(corrected)
        games = clock["games"]
        print(
            f"| {a_name} vs {b_name} | {args.deals} | {pm:.2f} ± {pw:.2f} | {cm:.2f} ± {cw:.2f} | {vp:.1f} | {vc:.1f} "
            f"| {ratio} | {ratio_previous} | {seq['plain'][0]:g} | {seq['corrected'][0]:g} "
            f"| {seq['previous'][0]:g} | {same:.0%} "
            f"| {clock['correct'] / games * 1000:.1f} | {clock['play'] / games * 1000:.1f} |"
        )
        if args.chance:
            vx = statistics.variance(series["with chance"])
            print(
                f"|   with chance corrections | | | | | {vx:.1f} | {vp / vx if vx else 0:.2f} | | "
                f"| {seq['with chance'][0]:g} | | "
                f"| {clock['chance'] / games * 1000:.1f} | |"
            )
        if args.draws:
            splits.append((f"{a_name} vs {b_name}", *draws_split(a, b, against, args.draws_deals, args.draws, clock)))
    if splits:
        print()
        print(f"Where the variance per deal comes from: {args.draws_deals} deals, each played {args.draws} times")
        print("with other draws of every bot (the deal's share: what no correction of the decisions can remove).")
        print()
        print("| pair | plain: total | its draws | its deal | corrected: total | its draws | its deal | at most |")
        print("|---|---|---|---|---|---|---|---|")
        for label, plain_split, corrected_split in splits:
            # Both series share the deal's share; the corrected one, with less noise from the draws, measures it.
            floor = corrected_split.deal
            most = f"{plain_split.total / floor:.0f}×" if floor > 0 else "not bounded by these deals"
            cells = [
                f"{value:.1f}"
                for split in (plain_split, corrected_split)
                for value in (split.total, split.draws, split.deal)
            ]
            print(f"| {label} | {' | '.join(cells)} | {most} |")
    if args.self_deals or args.self_runs:
        name = args.self_bot or pairs[0][0]
        a = resolve_bot(name, [])
        make = a.make

        def other_seeds(seed: int) -> Any:
            return make(seed + SELF_OFFSET)

        b = replace(a, label=f"{name} (other seeds)", make=other_seeds)
        clock = {"play": 0.0, "correct": 0.0, "previous": 0.0, "chance": 0.0, "games": 0.0}
        print()
        if args.self_deals:
            diffs = []
            for i in range(args.self_deals):
                diffs.append(play_deal(a, b, against, args.self_first + i, False, clock))
                print(f"  self: deal {i + 1}/{args.self_deals}", file=sys.stderr, end="\r", flush=True)
            print(file=sys.stderr)
            pm, pw = mean_ci([d.plain for d in diffs])
            cm, cw = mean_ci([d.corrected for d in diffs])
            inside = "contains 0" if abs(cm) <= cw else "EXCLUDES 0"
            print(
                f"self-comparison, {name} against itself, {args.self_deals} deals: plain {pm:.2f} ± {pw:.2f}, "
                f"corrected {cm:.2f} ± {cw:.2f} (the corrected interval {inside})"
            )
        if args.self_runs:
            stopping = Stopping(max_deals=30)
            better = 0
            seed = args.self_seed
            for run in range(args.self_runs):
                diffs_c: list[float] = []
                decided = None
                while decided is None and len(diffs_c) < stopping.max_deals:
                    diffs_c.append(play_deal(a, b, against, seed, False, clock).corrected)
                    seed += 1
                    decided = stopping.decide(diffs_c)
                better += decided == "better"
                print(f"  self runs: {run + 1}/{args.self_runs}", file=sys.stderr, end="\r", flush=True)
            print(file=sys.stderr)
            print(
                f"sequential self-comparisons, corrected: {better} of {args.self_runs} said 'better' "
                f"({better / args.self_runs:.1%}; the test's error rate is at most 5%)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
