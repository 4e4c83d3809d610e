"""Two playout budgets of the search bot side by side, with their CPU time per game.

Every game seats `search` with budget A, `search` with budget B and two greedy bots; the seats
rotate game by game, so each budget sits everywhere equally often. Reported: each budget's CPU time
per game (median), the mean of (A's total - B's total) with its 95% interval, and how often A
finishes above B. It answers what a faster engine buys at a fixed time per move: the budget that
fits in the old time, played against the old default.

    python bench/search_budget.py --a 160 --b 48 --games 200 --workers 2
"""

from __future__ import annotations

import argparse
import statistics
import sys
from multiprocessing import get_context
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.part_du_chef.bots.greedy import GreedyBot  # noqa: E402
from games.part_du_chef.bots.search import SearchBot  # noqa: E402
from games.part_du_chef.native import usable_build  # noqa: E402
from games.part_du_chef.play import play_state  # noqa: E402
from games.part_du_chef.simulation import Estimate, _Timed  # noqa: E402


def one_game(job: tuple[int, int, int]) -> tuple[int, float, float]:
    """(A's total - B's total, A's CPU seconds, B's CPU seconds) for game `game`."""
    game, a, b = job
    first, second = _Timed(SearchBot(game * 8, playouts=a)), _Timed(SearchBot(game * 8 + 1, playouts=b))
    seats: list[object] = [first, second, GreedyBot(), GreedyBot()]
    shift = game % 4
    seats = seats[shift:] + seats[:shift]
    state = play_state(seats, 1000 + game)  # type: ignore[arg-type]  # timed wrappers act like bots
    totals = [s.total for s in state.scores()]
    return totals[seats.index(first)] - totals[seats.index(second)], first.seconds, second.seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", type=int, default=160, help="playouts per candidate of the first search bot")
    parser.add_argument("--b", type=int, default=48, help="playouts per candidate of the second (default: the default)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    jobs = [(game, args.a, args.b) for game in range(args.games)]
    with get_context("spawn").Pool(args.workers) as pool:
        results = pool.map(one_game, jobs, chunksize=4)
    engine = "compiled" if usable_build() is not None else "pure Python"
    diffs = [float(d) for d, _, _ in results]
    print(f"{args.games} four-player games, search {args.a} vs search {args.b} with two greedy bots, {engine} engine")
    print(
        f"CPU time per game: search {args.a} median {statistics.median(r[1] for r in results):.3f} s, "
        f"search {args.b} median {statistics.median(r[2] for r in results):.3f} s"
    )
    above = Estimate.of([1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in diffs])
    print(
        f"total of search {args.a} - search {args.b}: {Estimate.of(diffs).format(2)}; "
        f"above it in {above.format(1, percent=True)} of games (ties half)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
