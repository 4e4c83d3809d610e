"""How much of a bot's result at a placement table does the deal decide?

A placement game could be corrected for the luck of its deal the way duplicate comparisons are: set
the newcomer's result against a reference bot's result on the same deal, in the same seat, against the
same house bots drawing the same random choices (a control variate with mean zero over deals). That
removes a share ρ² of the result's variance, ρ being the correlation of the two results over deals.
This measures ρ where placement happens: each engine at the table of the two rungs that bracket it
(`--tables`), `--deals` deals, the seat turning with the deal. The result is the newcomer's pair score
averaged over its opponents, as the rating reads it (`ratings.elo.pair_score`, the arena's rule).

Each line gives ρ and 1 / (1 - ρ²), the factor by which the variance would fall: a ratio of two
measures on the same games, whatever the machine's load.

    python bench/deal_luck.py [--deals 200] [--references greedy,noisy-greedy-10]
        [--tables random:random+noisy-greedy-65,...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.part_du_chef.bots import BOT_NAMES, NOISY_GREEDY, get_bot, is_bot_name  # noqa: E402
from games.part_du_chef.play import play_state  # noqa: E402
from ratings import elo  # noqa: E402

# Each engine of the placement benchmark at the table of the rungs around it on the default ladder.
TABLES = (
    ("random", ("random", "noisy-greedy-65")),
    ("noisy-greedy-25", ("noisy-greedy-45", "noisy-greedy-15")),
    ("greedy", ("noisy-greedy-15", "search-fast")),
    ("search-fast", ("greedy", "search")),
)
# Seeds of the bots' own draws at a deal: the house bots' by seat, the newcomer's and the reference's
# apart, so that a reference of the newcomer's own engine does not replay it move for move.
HOUSE_SEED, NEWCOMER_SEED, REFERENCE_SEED = 1, 7, 8


def pair_result(engine: str, opponents: tuple[str, ...], deal: int, seat: int, own_seed: int) -> float:
    """`engine`'s mean pair score in `seat` of deal `deal` against `opponents` in the other seats."""
    bots = [get_bot(name, deal * 10 + HOUSE_SEED + i) for i, name in enumerate(opponents)]
    bots.insert(seat, get_bot(engine, deal * 10 + own_seed))
    totals = [score.total for score in play_state(bots, deal).scores()]
    count = len(totals)
    pairs = [elo.pair_score((False, totals[seat]), (False, totals[j]), count) for j in range(count) if j != seat]
    return statistics.fmean(pairs)


def parse_tables(text: str) -> list[tuple[str, tuple[str, ...]]] | None:
    """ "engine:rung+rung,..." to [(engine, (rung, rung)), ...]; None if malformed.

    >>> parse_tables("random:random+noisy-greedy-65")
    [('random', ('random', 'noisy-greedy-65'))]
    >>> parse_tables("random") is None, parse_tables("random:") is None
    (True, True)
    """
    tables = []
    for part in text.split(","):
        engine, _, rest = part.partition(":")
        opponents = tuple(name for name in rest.split("+") if name)
        if not engine or not opponents:
            return None
        tables.append((engine.strip(), opponents))
    return tables


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200, help="deals per table (default 200)")
    parser.add_argument("--references", default="greedy,noisy-greedy-10", help="the reference bots, comma separated")
    parser.add_argument(
        "--tables",
        default=",".join(f"{engine}:{'+'.join(rungs)}" for engine, rungs in TABLES),
        help="engine:rung+rung,... (default: each placement engine between its rungs)",
    )
    args = parser.parse_args()
    tables = parse_tables(args.tables)
    references = [name for name in args.references.split(",") if name]
    if tables is None:
        parser.error(f"--tables: engine:rung+rung separated by commas, not {args.tables!r}")
    if args.deals < 3 or not references:
        parser.error("--deals must be 3 or more and --references name at least one bot")
    strangers = sorted({name for engine, rungs in tables for name in (engine, *rungs)} | set(references))
    strangers = [name for name in strangers if not is_bot_name(name)]
    if strangers:
        known = f"{', '.join(BOT_NAMES)} and {NOISY_GREEDY}P"
        parser.error(f"not built-in bots: {', '.join(strangers)} (the built-in bots: {known})")

    print(f"{args.deals} deals per table; the newcomer's and each reference's pair score on the same deals\n")
    columns = " | ".join(f"ρ with {name} | variance ÷" for name in references)
    print(f"| engine | house bots | sd of its result | {columns} |")
    print("|---|---|---|" + "---|---|" * len(references))
    for engine, rungs in tables:
        started = time.perf_counter()
        size = len(rungs) + 1
        own: list[float] = []
        theirs: dict[str, list[float]] = {name: [] for name in references}
        for deal in range(1, args.deals + 1):
            seat = deal % size
            own.append(pair_result(engine, rungs, deal, seat, NEWCOMER_SEED))
            for name in references:
                theirs[name].append(pair_result(name, rungs, deal, seat, REFERENCE_SEED))
            if deal % 50 == 0 or deal == args.deals:
                print(f"  {engine}: {deal}/{args.deals} deals ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
        cells = []
        for name in references:
            rho = statistics.correlation(own, theirs[name]) if statistics.pstdev(theirs[name]) > 0 else 0.0
            # A reference of the newcomer's own deterministic engine plays its very moves: nothing to learn.
            same = 1.0 - rho * rho < 1e-6
            cells.append(f"{rho:+.2f} | {'- (the same play)' if same else f'{1.0 / (1.0 - rho * rho):.2f}'}")
        print(f"| {engine} | {' + '.join(rungs)} | {statistics.pstdev(own):.3f} | {' | '.join(cells)} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
