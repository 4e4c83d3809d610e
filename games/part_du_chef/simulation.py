"""Many games between built-in bots: batches for the simulator, the strength ladder, the benchmark.

Seeds are derived from one base seed, so a batch is reproducible: game i is dealt from seed
`seed + i`, and the bot in seat s of game i gets seed `(seed + i) * 8 + s`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from multiprocessing import get_context
from typing import Any, Final

from .actions import Action
from .bots import Bot, get_bot
from .bots.random_bot import RandomBot
from .bots.search import SearchBot
from .observation import Observation
from .play import play_state

Z95: Final = 1.959963984540054
LADDER_BOTS: Final = ("search", "greedy", "random")
# Every table of four holds each ladder bot, one of them twice; all three such tables, each in its
# four rotations, so that every bot sits in every seat equally often over 12 consecutive games.


def ladder_lineups(names: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The ladder's tables for three bot names: each table holds all three, one twice, in four rotations."""
    return tuple(tuple(lineup[r:] + lineup[:r]) for double in names for lineup in [[*names, double]] for r in range(4))


_LADDER_LINEUPS: Final = ladder_lineups(LADDER_BOTS)
LADDER_CYCLE: Final = len(_LADDER_LINEUPS)


def bot_seed(game_seed: int, seat: int) -> int:
    return game_seed * 8 + seat


@dataclass(frozen=True)
class GameResult:
    seed: int
    names: tuple[str, ...]
    totals: tuple[int, ...]
    ranks: tuple[int, ...]
    record: dict[str, Any] | None
    seconds: float


def make_bot(name: str, seed: int, search_playouts: int | None = None) -> Bot:
    if name == "search" and search_playouts is not None:
        return SearchBot(seed, playouts=search_playouts)
    return get_bot(name, seed)


def play_one(
    names: Sequence[str],
    seed: int,
    *,
    marianne: bool = False,
    with_record: bool = True,
    search_playouts: int | None = None,
) -> GameResult:
    start = time.perf_counter()
    bots = [make_bot(name, bot_seed(seed, seat), search_playouts) for seat, name in enumerate(names)]
    state = play_state(bots, seed, marianne=marianne)
    seconds = time.perf_counter() - start
    record = state.to_record(list(names), {"bots": list(names)}) if with_record else None
    return GameResult(
        seed, tuple(names), tuple(s.total for s in state.scores()), state.ranks(), record, round(seconds, 4)
    )


def simulate(
    names: Sequence[str],
    games: int,
    seed: int,
    *,
    marianne: bool = False,
    with_records: bool = True,
    search_playouts: int | None = None,
) -> Iterator[GameResult]:
    """Games `seed`, `seed + 1`, ... with the same bots in the same seats."""
    for i in range(games):
        yield play_one(names, seed + i, marianne=marianne, with_record=with_records, search_playouts=search_playouts)


# -- statistics --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """A mean and the half-width of its 95% confidence interval (normal approximation)."""

    mean: float
    half_width: float
    n: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Estimate:
        n = len(values)
        if n == 0:
            return cls(math.nan, math.nan, 0)
        mean = sum(values) / n
        if n == 1:
            return cls(mean, math.inf, 1)
        variance = sum((v - mean) ** 2 for v in values) / (n - 1)
        return cls(mean, Z95 * math.sqrt(variance / n), n)

    def format(self, digits: int = 2, percent: bool = False) -> str:
        if self.n == 0:
            return "-"
        scale = 100.0 if percent else 1.0
        unit = "%" if percent else ""
        mean = f"{self.mean * scale:.{digits}f}{unit}"
        if math.isinf(self.half_width):
            return mean
        return f"{mean} ± {self.half_width * scale:.{digits}f}{unit}"

    def to_json(self) -> dict[str, float | int]:
        return {"mean": self.mean, "ci95": self.half_width, "n": self.n}


@dataclass(frozen=True)
class BotSummary:
    name: str
    seats: int
    games: int
    score: Estimate
    rank: Estimate
    wins: Estimate


def summarize(results: Sequence[GameResult]) -> list[BotSummary]:
    """Per bot name: mean total, mean rank and share of first places (shared first places count).

    A bot playing several seats of one game has those seats averaged first, so that every game
    counts once and the intervals rest on independent games.
    """
    per_game: dict[str, list[tuple[float, float, float, int]]] = {}
    for result in results:
        seats_of: dict[str, list[int]] = {}
        for seat, name in enumerate(result.names):
            seats_of.setdefault(name, []).append(seat)
        for name, seats in seats_of.items():
            k = len(seats)
            per_game.setdefault(name, []).append(
                (
                    sum(result.totals[s] for s in seats) / k,
                    sum(result.ranks[s] for s in seats) / k,
                    sum(1.0 for s in seats if result.ranks[s] == 1) / k,
                    k,
                )
            )
    summaries = []
    for name, rows in per_game.items():
        summaries.append(
            BotSummary(
                name,
                sum(r[3] for r in rows),
                len(rows),
                Estimate.of([r[0] for r in rows]),
                Estimate.of([r[1] for r in rows]),
                Estimate.of([r[2] for r in rows]),
            )
        )
    summaries.sort(key=lambda s: (-s.score.mean, s.name))
    return summaries


def head_to_head(results: Sequence[GameResult]) -> dict[tuple[str, str], Estimate]:
    """For each pair of bot names (a, b): how often a seat of a finishes above a seat of b in the same
    game (a tie counts half), averaged per game over the pairs of such seats."""
    per_game: dict[tuple[str, str], list[float]] = {}
    names = sorted({name for result in results for name in result.names})
    for a, b in combinations(names, 2):
        for first, second in ((a, b), (b, a)):
            per_game[(first, second)] = []
    for result in results:
        for first, second in per_game:
            duels = [
                1.0 if result.totals[i] > result.totals[j] else 0.5 if result.totals[i] == result.totals[j] else 0.0
                for i, x in enumerate(result.names)
                if x == first
                for j, y in enumerate(result.names)
                if y == second
            ]
            if duels:
                per_game[(first, second)].append(sum(duels) / len(duels))
    return {pair: Estimate.of(values) for pair, values in per_game.items()}


# -- the strength ladder -----------------------------------------------------------------------


def ladder_lineup(game: int) -> tuple[str, ...]:
    return _LADDER_LINEUPS[game % LADDER_CYCLE]


def _ladder_game(job: tuple[int, int, bool, int | None]) -> GameResult:
    game, seed, marianne, search_playouts = job
    return play_one(
        ladder_lineup(game), seed + game, marianne=marianne, with_record=False, search_playouts=search_playouts
    )


def ladder(
    games: int,
    seed: int,
    *,
    workers: int = 2,
    marianne: bool = False,
    search_playouts: int | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    on_estimate: Callable[[float], None] | None = None,
) -> list[GameResult]:
    """Four-player games mixing search, greedy and random (see _LADDER_LINEUPS), on `workers` processes.

    Results come back in game order whatever the number of workers, so a ladder is reproducible.
    `on_estimate` is given the CPU seconds the whole ladder should take, before the other games start:
    one game of each of the three tables is played first, in this process, and timed (those games are
    the ladder's own, not played again).
    """
    jobs = [(game, seed, marianne, search_playouts) for game in range(games)]
    played: dict[int, GameResult] = {}
    if on_estimate is not None:
        sample = list(range(0, min(games, LADDER_CYCLE), LADDER_CYCLE // 3))
        start = time.process_time()
        for game in sample:
            played[game] = _ladder_game(jobs[game])
        on_estimate((time.process_time() - start) / len(sample) * games)
        if on_result is not None:
            for game in sample:
                on_result(played[game])
    rest = [job for job in jobs if job[0] not in played]
    if workers <= 1:
        for job in rest:
            played[job[0]] = _ladder_game(job)
            if on_result is not None:
                on_result(played[job[0]])
    else:
        with get_context("spawn").Pool(workers) as pool:
            for job, result in zip(rest, pool.imap(_ladder_game, rest, chunksize=4), strict=True):
                played[job[0]] = result
                if on_result is not None:
                    on_result(result)
    return [played[game] for game in range(games)]


# -- the benchmark ------------------------------------------------------------------------------


def bench_run(games: int, players: int, seed: int = 0) -> tuple[float, float]:
    """Full random games, play and final scoring, in this process: (CPU seconds, wall seconds).

    CPU time is what one core spends on the games, whatever else the machine is doing; wall time
    is reported beside it."""
    bots = [RandomBot(seat) for seat in range(players)]
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(games):
        play_state(bots, seed + i).scores()
    return time.process_time() - cpu, time.perf_counter() - wall


class _Timed:
    """A bot wrapper adding up the CPU time its bot spends choosing."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.seconds = 0.0

    def act(self, observation: Observation) -> Action:
        start = time.process_time()
        action = self.bot.act(observation)
        self.seconds += time.process_time() - start
        return action


def think_times(name: str, games: int, players: int, seed: int = 0, opponents: str = "random") -> list[float]:
    """CPU seconds one `name` bot spends choosing over each of `games` games, seated in turn in every
    seat among `opponents` bots."""
    times = []
    for i in range(games):
        timed = _Timed(get_bot(name, bot_seed(seed + i, 0)))
        others: list[Bot] = [get_bot(opponents, bot_seed(seed + i, seat)) for seat in range(1, players)]
        seat = (seed + i) % players
        play_state([*others[:seat], timed, *others[seat:]], seed + i)
        times.append(timed.seconds)
    return times
