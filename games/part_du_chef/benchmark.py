"""The engine's speed as a ratio to the naive engine, both measured in the same run on the same core.

Absolute games per second differ threefold between machines; a ratio to a fixed yardstick measured
side by side does not. The yardstick is the naive engine (`naive_engine.py` in this package, never
changed and never compiled): it plays complete random games the plain way. `--baseline` measures
against another file with the same `random_game(players, seed)` function instead. Each round runs, on
one pinned core and one after the other, the engine's random games, the same games played by
random bots through their observations, and the naive engine's games; the ratio of each round is
taken within the round, and the medians over the rounds are reported.
"""

from __future__ import annotations

import importlib.util
import os
import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from .playout import play_random
from .simulation import bench_run
from .state import State

# The yardstick ships with the package, so the ratio is measured in any checkout or installation. It is
# loaded from its file like any other baseline (the same path for the default and for --baseline).
DEFAULT_BASELINE = Path(__file__).resolve().parent / "naive_engine.py"


class BaselineError(Exception):
    """The naive engine could not be loaded or run; the message names the file and the problem."""


@dataclass(frozen=True)
class Round:
    engine: float  # games per CPU second, random games on the State
    bots: float  # games per CPU second, random bots through observations
    naive: float | None  # games per CPU second of the naive engine, None without it

    @property
    def ratio(self) -> float | None:
        return None if self.naive is None else self.engine / self.naive

    @property
    def bots_ratio(self) -> float | None:
        return None if self.naive is None else self.bots / self.naive


def engine_games(games: int, players: int, seed: int) -> float:
    """CPU seconds for `games` random games (play and final scoring) on the engine's fast path: dealt
    from seeds `seed`, `seed + 1`, ..., decided by one random generator seeded with `seed`."""
    rng = random.Random(seed)  # one generator for the run, as each random bot keeps its own
    start = time.process_time()
    for i in range(games):
        play_random(State.new(players, seed + i), rng).scores()
    return time.process_time() - start


def bot_games(games: int, players: int, seed: int) -> float:
    """CPU seconds for `games` games between random bots, each decision from a fresh observation."""
    return bench_run(games, players, seed)[0]


def load_baseline(path: Path) -> ModuleType:
    """Import the naive engine from its file (it is a script, not a package)."""
    if not path.is_file():
        raise BaselineError(f"no naive engine at {path}")
    spec = importlib.util.spec_from_file_location("naive_engine", path)
    if spec is None or spec.loader is None:
        raise BaselineError(f"{path} cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # a broken yardstick is reported, whatever it raises
        raise BaselineError(f"{path} fails to import: {e}") from None
    if not callable(getattr(module, "random_game", None)):
        raise BaselineError(f"{path} has no random_game(players, seed) function")
    return module


def naive_games(module: ModuleType, games: int, players: int, seed: int) -> float:
    """CPU seconds for `games` of the naive engine's random games."""
    play: Callable[[int, int], object] = module.random_game
    start = time.process_time()
    try:
        for i in range(games):
            play(players, seed + i)
    except Exception as e:  # a broken yardstick is reported, whatever it raises
        raise BaselineError(f"{module.__file__}: random_game({players}, {seed + i}) fails: {e!r}") from None
    return time.process_time() - start


@contextmanager
def one_core() -> Iterator[int | None]:
    """Pin this process to the core it is on (where the OS allows it), so that every measure of a
    round runs on the same core; yields the core, or None where pinning is not available."""
    get = getattr(os, "sched_getaffinity", None)
    pin = getattr(os, "sched_setaffinity", None)
    if get is None or pin is None:
        yield None
        return
    before = get(0)
    core = min(before)
    try:
        pin(0, {core})
    except OSError:
        yield None
        return
    try:
        yield core
    finally:
        pin(0, before)


def rate(games: int, seconds: float) -> float:
    return games / max(seconds, 1e-9)


def run_round(games: int, players: int, seed: int, baseline: ModuleType | None, baseline_games: int) -> Round:
    engine = rate(games, engine_games(games, players, seed))
    bots = rate(games, bot_games(games, players, seed))
    naive = None if baseline is None else rate(baseline_games, naive_games(baseline, baseline_games, players, seed))
    return Round(engine, bots, naive)


def median(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def report(games: int, players: int, runs: int, baseline: Path, write: Callable[[str], None] = print) -> list[Round]:
    """Run `runs` rounds and write one line per round, the ratios, and last the engine's median rate."""
    module: ModuleType | None
    try:
        module = load_baseline(baseline)
    except BaselineError as e:
        module, problem = None, str(e)
    # The naive engine is an order of magnitude slower: a tenth of the games keeps the rounds even.
    baseline_games = max(1, games // 10)
    rounds = []
    with one_core() as core:
        for n in range(runs):
            try:
                this = run_round(games, players, n * games, module, baseline_games)
            except BaselineError as e:
                module, problem = None, str(e)
                this = run_round(games, players, n * games, None, baseline_games)
            rounds.append(this)
            line = f"round {n + 1}: engine {this.engine:,.0f} games/s, random bots {this.bots:,.0f} games/s"
            if this.naive is not None and this.ratio is not None and this.bots_ratio is not None:
                line += f", naive engine {this.naive:,.0f} games/s: {this.ratio:.1f}x and {this.bots_ratio:.1f}x"
            write(line)
    where = "not pinned to a core" if core is None else f"pinned to core {core}"
    engine = median([r.engine for r in rounds])
    ratio = median([r.ratio for r in rounds])
    bots_ratio = median([r.bots_ratio for r in rounds])
    naive = median([r.naive for r in rounds])
    if module is None or ratio is None or bots_ratio is None or naive is None:
        write(f"{problem}: no ratio measured (give the naive engine's path with --baseline)")
    else:
        write(
            f"ratio to the naive engine ({naive:,.0f} games/s), medians of {runs} interleaved rounds, {where}: "
            f"engine {ratio:.1f}x, random bots through observations {bots_ratio:.1f}x"
        )
    assert engine is not None
    write(
        f"{players}-player random games, play + scoring, one core (CPU time), median of {runs} runs: "
        f"{engine:,.0f} games/s"
    )
    return rounds
