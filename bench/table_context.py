"""How far a bot's level depends on who else sits at its table.

A rating is one number per bot, but at tables of three or more a game's result between two players
turns on the others too: the rating of a newcomer placed against a few rungs is its level against
those rungs, and the benchmark's true level (`bench/arena_placement.py`) is the level of the house
bot of its code against the whole ladder. This measures the gap, with the arena's own scores and
expectation (`ratings.elo`, rule 2), in process:

* every set of `--size` bots of `--bots` plays `--games` games, the seats turned by one each game,
  each dealt from its own seed and each seat seeded as `simulate` seeds it;
* the ratings that the arena's update leaves unmoved on average over all those tables together
  (each bot's pair scores summed over every table, set against the expectation at the ratings:
  where every sum is zero; the mean held at 1500) are the bots' levels over the whole set;
* then, for each table and each bot at it, the rating at which that bot's scores at that table
  alone are what the update expects of it, the others at their levels over the whole set: its
  level at that table. Beside each, the difference to its level over the whole set.

A placement against the rungs near a bot measures its level at those tables: when that differs from
its level over the ladder by more than the error asked of placement, no placement can reach it.

    python bench/table_context.py [--bots random,noisy-greedy-45,greedy,search-fast] [--size 3] [--games 150]
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.part_du_chef.bots import is_bot_name  # noqa: E402
from games.part_du_chef.play import play_state  # noqa: E402
from games.part_du_chef.simulation import bot_seed, make_bot  # noqa: E402
from ratings.elo import INITIAL_RATING, expected, pair_score  # noqa: E402

FIRST_SEED = 900_000
Q = math.log(10) / 400


def play_table(bots: tuple[str, ...], games: int, seed: int) -> dict[tuple[str, str], list[float]]:
    """Each ordered pair's pair scores (rule 2) over `games` games of these bots, seats turned each game."""
    scores: dict[tuple[str, str], list[float]] = defaultdict(list)
    size = len(bots)
    for game in range(games):
        turn = game % size
        names = bots[turn:] + bots[:turn]
        deal = seed + game
        state = play_state([make_bot(name, bot_seed(deal, seat)) for seat, name in enumerate(names)], deal)
        totals = [score.total for score in state.scores()]
        for i, j in itertools.permutations(range(size), 2):
            scores[names[i], names[j]].append(pair_score((False, totals[i]), (False, totals[j]), size))
    return scores


def levels(tables: dict[tuple[str, ...], dict[tuple[str, str], list[float]]], bots: list[str]) -> dict[str, float]:
    """The ratings at which every bot's pair scores over all tables sum to their expectation (mean 1500)."""
    rating = dict.fromkeys(bots, INITIAL_RATING)
    for _ in range(200):
        for bot in bots:
            surplus = information = 0.0
            for scores in tables.values():
                for (me, them), values in scores.items():
                    if me != bot:
                        continue
                    e = expected(rating[me], rating[them])
                    surplus += sum(values) - len(values) * e
                    information += len(values) * Q * e * (1 - e)
            rating[bot] += max(-200.0, min(200.0, surplus / information))
        shift = INITIAL_RATING - sum(rating.values()) / len(bots)
        rating = {bot: value + shift for bot, value in rating.items()}
    return rating


def level_at(bot: str, scores: dict[tuple[str, str], list[float]], rating: dict[str, float]) -> float:
    """The rating at which `bot`'s pair scores at this table are what the update expects (bisection)."""
    own = [(them, values) for (me, them), values in scores.items() if me == bot]

    def surplus(r: float) -> float:
        return sum(sum(values) - len(values) * expected(r, rating[them]) for them, values in own)

    low, high = -2000.0, 5000.0
    for _ in range(100):
        middle = (low + high) / 2
        if surplus(middle) > 0:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", default="random,noisy-greedy-45,greedy,search-fast", help="built-in bots")
    parser.add_argument("--size", type=int, default=3, help="the table size (default 3)")
    parser.add_argument("--games", type=int, default=150, help="games per table (default 150)")
    args = parser.parse_args()
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    unknown = [name for name in bots if not is_bot_name(name)]
    if unknown:
        parser.error(f"--bots: {', '.join(unknown)} not built-in bots")
    if len(set(bots)) != len(bots) or not 2 <= args.size <= min(5, len(bots)):
        parser.error("--bots must name distinct bots, at least --size of them; --size from 2 to 5")
    if args.games < 1:
        parser.error("--games must be 1 or more")
    combos = list(itertools.combinations(bots, args.size))
    print(
        f"# a bot's level by table: {len(combos)} tables of {args.size} of {', '.join(bots)}, {args.games} games each, "
        f"load {os.getloadavg()[0]:.2f}"
    )
    started = time.perf_counter()
    tables: dict[tuple[str, ...], dict[tuple[str, str], list[float]]] = {}
    for number, combo in enumerate(combos):
        tables[combo] = play_table(combo, args.games, FIRST_SEED + number * args.games)
        print(
            f"  table {number + 1}/{len(combos)} ({' + '.join(combo)}) in {time.perf_counter() - started:.0f} s",
            file=sys.stderr,
            flush=True,
        )
    rating = levels(tables, bots)
    print()
    print("Levels over all the tables together (the mean held at 1500):", end=" ")
    print(", ".join(f"{bot} {rating[bot]:.0f}" for bot in bots))
    print()
    print("| bot | at the table with | its level there | minus its level over all tables |")
    print("|---|---|---|---|")
    spread: dict[str, list[float]] = defaultdict(list)
    for combo, scores in tables.items():
        for bot in combo:
            here = level_at(bot, scores, rating)
            spread[bot].append(here - rating[bot])
            others = " + ".join(name for name in combo if name != bot)
            print(f"| {bot} | {others} | {here:.0f} | {here - rating[bot]:+.0f} |")
    print()
    print("| bot | level over all tables | largest gap at one table | mean absolute gap |")
    print("|---|---|---|---|")
    for bot in bots:
        gaps = spread[bot]
        mean_gap = sum(abs(gap) for gap in gaps) / len(gaps)
        print(f"| {bot} | {rating[bot]:.0f} | {max(gaps, key=abs):+.0f} | {mean_gap:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
