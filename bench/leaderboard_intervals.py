"""What a leaderboard page's rank intervals cost, from the Redis index and from the SQL fallback.

Every line of a page carries the ranks its player would hold at either end of their 95% rating
interval: two counts of the players above a rating per line, 100 for a page of 50. Loads (once)
`--players` rated bots into the leaderboard benchmark's database (`<DATABASE_URL name>_board`, shared
with bench/leaderboard.py) and indexes them in Redis, then reads random pages among the first 1,000,
each measured both ways in the same round, in alternating order:

* index: the whole page as the API reads it (`ratings.leaderboard.page`: lines, intervals and rank
  intervals) against the same page's lines alone (`index.page_lines`, one script): the ratio is what
  the intervals add;
* SQL fallback: the page's rank intervals (`sql.ahead` of its 100 interval ends, one query) against
  one `SELECT COUNT(*)` of the board, the cost the intervals must stay under.

    python bench/leaderboard_intervals.py [--players 150000] [--pages 200] [--rounds 5]

Reports the medians of per-page times (ms), the ratios of the medians in each round and their median
over the rounds, and the machine's load beside them.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GAME = "part-du-chef"
PAGE = 50


def timed(call: Callable[[], object]) -> float:
    began = time.perf_counter()
    call()
    return (time.perf_counter() - began) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=150_000)
    parser.add_argument("--pages", type=int, default=200, help="random pages per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    from bench.leaderboard import board_database_url
    from bench.trees import machine, own_queues

    os.environ["DATABASE_URL"] = board_database_url()
    own_queues("intervals")
    os.environ["ARENA_REQUIRE_SERVICES"] = "1"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.db import connection

    from bench.leaderboard import load
    from ratings import leaderboard
    from ratings.leaderboard import index, sql

    load(args.players)
    pages = min(1000, -(-args.players // PAGE))
    rng = random.Random(11)

    def count_all() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM ratings_rating WHERE game = %s", [GAME])
            cursor.fetchone()

    ratios: dict[str, list[float]] = {"index": [], "sql": []}
    medians: dict[str, list[float]] = {"page": [], "lines": [], "ahead": [], "count": []}
    for round_number in range(args.rounds):
        times: dict[str, list[float]] = {key: [] for key in medians}
        for position in range(args.pages):
            number = rng.randint(1, pages)
            offset = (number - 1) * PAGE
            answer = leaderboard.page(GAME, None, number, PAGE)
            assert not isinstance(answer, int), "the page is past the end of the board"
            ends = [(end, 0) for row in answer[1] for end in (row.interval[1], row.interval[0])]
            pairs: list[tuple[str, Callable[[], object]]] = [
                ("page", partial(leaderboard.page, GAME, None, number, PAGE)),
                ("lines", partial(index.page_lines, GAME, None, offset, PAGE)),
                ("ahead", partial(sql.ahead, GAME, None, ends)),
                ("count", count_all),
            ]
            # Alternate which of each pair goes first, so that neither always finds the caches warm.
            for first in range(0, len(pairs), 2):
                pair = pairs[first : first + 2]
                for key, call in pair if position % 2 else pair[::-1]:
                    times[key].append(timed(call))
        for key, values in times.items():
            medians[key].append(statistics.median(values))
        ratios["index"].append(medians["page"][-1] / medians["lines"][-1])
        ratios["sql"].append(medians["ahead"][-1] / medians["count"][-1])
        print(
            f"round {round_number + 1}: page {medians['page'][-1]:.3f} ms / lines {medians['lines'][-1]:.3f} ms = "
            f"{ratios['index'][-1]:.2f}x; SQL rank intervals {medians['ahead'][-1]:.2f} ms / COUNT(*) "
            f"{medians['count'][-1]:.2f} ms = {ratios['sql'][-1]:.2f}x; load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    print(
        f"| {args.players:,} players, page of {PAGE} | index: page with intervals / its lines alone | "
        f"**{statistics.median(ratios['index']):.2f}x** ({statistics.median(medians['page']):.3f} / "
        f"{statistics.median(medians['lines']):.3f} ms) |"
    )
    print(
        f"| {args.players:,} players, {2 * PAGE} interval ends | SQL: rank intervals / one COUNT(*) of the board | "
        f"**{statistics.median(ratios['sql']):.2f}x** ({statistics.median(medians['ahead']):.2f} / "
        f"{statistics.median(medians['count']):.2f} ms) |"
    )
    print(f"medians of {args.rounds} rounds of {args.pages} random pages among the first {pages}; {machine()}")


if __name__ == "__main__":
    main()
