"""The arena's rating against TrueSkill and OpenSkill, fed the same stream of real games.

Bots of known kinds (random, ε-greedy mixes, greedy, search at two budgets) play a simulated
arena, in this process, with the rules package: a house ladder (random, greedy, search-fast) plays
on throughout; newcomers of every kind join, play their first 10 games at tables of 2 or 3 with the
house bots nearest to their current (arena) rating (with `--spread F`, nearest to it minus and plus F
deviations), then mixed tables of 2 to 4 with the other
active bots, and leave after 30 to 60 games. ("search", the ladder's top rung in the arena, is left
out: its games cost ten times a greedy one's.) Every game's
result goes, in the same order, to:

- arena: ratings.elo.rate_game, the formula ratings.ledger applies (rating ± 1.96 deviation), rule 2
  (order and margin of points);
- arena rule 1: the same formula by the order alone, the rule before margins counted;
- fixed-K: the arena's formula before deviations (K = 96/64/32 by games played), no interval;
- TrueSkill (`trueskill`, default environment) and OpenSkill (`openskill`, Plackett-Luce), their
  μ and σ put on the Elo scale by the factor that makes their own win probability of two settled
  players the Elo curve: Φ(Δμ / (√2 β)) for TrueSkill (about 50 Elo points per unit),
  1 / (1 + e^(-Δμ / (√2 β))) for Plackett-Luce (about 29.5).

The true level of each kind is the Bradley-Terry fit (in Elo points) of every pair of players in
every game of the stream. Where a newcomer belongs on a system's scale is read off that system's own
house ladder: the rating of the house bot of its kind, or between the two house bots around its true
level, in proportion (`placed_level`; the house ladder anchors every system's scale, and its spread
on each scale is the system's own). Reported, for each system:

- newcomer error: mean |rating - where it belongs| of newcomers after their 5th, 10th and 30th game;
  and after 10 games on the arena's scale: as a share of the system's own house-ladder span (highest
  minus lowest house bot at that moment), times the arena's span (a system whose scale is narrower
  shows smaller errors in points without placing any better);
- log loss: each pair of each game predicted before the game is rated (ties count one half), with
  the paired 95% interval of the difference to TrueSkill over the games;
- Spearman: rank correlation of all bots' ratings with the true levels at the end;
- coverage: how often where it belongs is inside the 95% interval (newcomers at 5, 10, 30 games),
  overall and for the arena per kind of newcomer;
- the margin spread: the standard deviation of x_i - x_j over the pairs of players of one kind at each
  table size, the measure behind ratings.elo.MARGIN_SCALE;
- drift (arena): each house bot's mean rating over the last fifth of the games after the warm-up
  against the first fifth, and against the second fifth (once the house has settled), and its
  largest excursion from the first fifth's mean.

    python bench/rating_systems.py [--games 2500] [--seed 1] [--quick] [--shares 0.25,0.75]
        [--house random,eps-0.75,eps-0.5,eps-0.25,greedy,search-fast] [--spread 1]

Games are cached in bench/results/rating_systems_games.json (by seats and seed), so a second run
takes seconds; the first full run plays 2500 games (33 minutes on the busy 2-core benchmark
machine), `--quick` 600 (8 minutes).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import openskill.models  # noqa: E402
import trueskill  # type: ignore[import-untyped]  # noqa: E402  # no type information shipped

from games.part_du_chef.actions import Action  # noqa: E402
from games.part_du_chef.bots import Bot  # noqa: E402
from games.part_du_chef.bots.greedy import GreedyBot  # noqa: E402
from games.part_du_chef.bots.random_bot import RandomBot  # noqa: E402
from games.part_du_chef.bots.search import SearchBot  # noqa: E402
from games.part_du_chef.observation import Observation  # noqa: E402
from games.part_du_chef.play import play_state  # noqa: E402
from ratings import elo  # noqa: E402

CHECKPOINTS = (5, 10, 30)
HOUSE = ("random", "greedy", "search-fast")
# The kinds of newcomers; "eps-p" plays a random action with probability p, else greedy's.
NEWCOMER_KINDS = ("random", "eps-0.75", "eps-0.5", "eps-0.25", "greedy", "search-2", "search-fast")
PLACEMENT_GAMES = 10
CACHE = ROOT / "bench" / "results" / "rating_systems_games.json"
# Φ(x) ≈ logistic(1.702 x): one unit of μ (β = 25/6) in Elo points.
ELO_PER_UNIT = 1.702 / (math.sqrt(2.0) * 25.0 / 6.0) * 400.0 / math.log(10.0)


class EpsilonGreedy:
    """Greedy's move, or with probability `epsilon` a random one."""

    def __init__(self, epsilon: float, seed: int) -> None:
        self.name = f"eps-{epsilon}"
        self.epsilon = epsilon
        self.rng = random.Random(seed)
        self.greedy = GreedyBot(seed)
        self.random = RandomBot(seed)

    def act(self, observation: Observation) -> Action:
        if self.rng.random() < self.epsilon:
            return self.random.act(observation)
        return self.greedy.act(observation)


def make_bot(kind: str, seed: int) -> Bot:
    if kind == "random":
        return RandomBot(seed)
    if kind == "greedy":
        return GreedyBot(seed)
    if kind.startswith("eps-"):
        return EpsilonGreedy(float(kind.removeprefix("eps-")), seed)
    if kind == "search-2":
        return SearchBot(seed, playouts=2, cut_candidates=2)
    if kind == "search-fast":
        return SearchBot(seed, playouts=8, cut_candidates=4)
    raise ValueError(f"unknown kind {kind!r}")


class GameCache:
    """Totals of played games by (kinds in seat order, seed), kept in a JSON file between runs."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.games: dict[str, list[int]] = {}
        self.played = 0
        if path is not None and path.exists():
            self.games = json.loads(path.read_text())

    def totals(self, kinds: Sequence[str], seed: int) -> list[int]:
        key = f"{'/'.join(kinds)}#{seed}"
        if key not in self.games:
            bots = [make_bot(kind, seed * 8 + seat) for seat, kind in enumerate(kinds)]
            self.games[key] = [score.total for score in play_state(bots, seed).scores()]
            self.played += 1
        return self.games[key]

    def save(self) -> None:
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(self.games, separators=(",", ":")))


@dataclass
class Player:
    id: int
    kind: str
    house: bool
    quota: int
    games: int = 0


@dataclass(frozen=True)
class Game:
    players: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class Population:
    """What the simulated arena is made of."""

    house: tuple[str, ...] = HOUSE
    newcomers: tuple[str, ...] = NEWCOMER_KINDS
    # Placement meets the house bots nearest the rating (0), or nearest it minus and plus this many deviations.
    spread: float = 0.0


def arena_stream(
    count: int, seed: int, warmup: int, cache: GameCache, progress: bool, kinds: Population
) -> tuple[list[Player], list[Game]]:
    """The games of a simulated arena, in order: house warm-up, then newcomers joining and leaving."""
    rng = random.Random(seed)
    players = [Player(i, kind, True, 0) for i, kind in enumerate(kinds.house)]
    house = list(range(len(kinds.house)))
    active: list[int] = []
    games: list[Game] = []
    matchmaker = Arena()
    started = time.perf_counter()
    for number in range(count):
        size = rng.choice((2, 3, 4))
        if number < warmup:
            table = rng.sample(house, min(size, len(house)))
        else:
            while len(active) < 10:
                kind = kinds.newcomers[len(players) % len(kinds.newcomers)]
                players.append(Player(len(players), kind, False, rng.randint(30, 60)))
                active.append(players[-1].id)
            focus = min(active, key=lambda i: (players[i].games, i))
            if players[focus].games < PLACEMENT_GAMES:
                # Placement: the house bots nearest to the newcomer's current rating (the arena's), or
                # with --spread, those nearest its rating minus and plus `spread` deviations.
                estimate, deviation = matchmaker.estimate(focus)
                seats = min(size, 3) - 1
                if kinds.spread:
                    reach = kinds.spread * deviation
                    ends = [estimate - reach, estimate + reach]
                    targets = ends if seats == 2 else [ends[players[focus].games % 2]]
                    others = []
                    for target in targets:
                        rungs = sorted(
                            (h for h in house if h not in others),
                            key=lambda h: (abs(matchmaker.estimate(h)[0] - target), h),
                        )
                        others.append(rungs[0])
                else:
                    nearest = sorted(house, key=lambda h: (abs(matchmaker.estimate(h)[0] - estimate), h))
                    others = nearest[:seats]
            else:
                others = rng.sample([i for i in active + house if i != focus], size - 1)
            table = [focus, *others]
            rng.shuffle(table)
        totals = cache.totals([players[i].kind for i in table], seed * 100_000 + number)
        games.append(Game(tuple(table), tuple(totals)))
        matchmaker.rate(games[-1])
        for i in table:
            players[i].games += 1
        active = [i for i in active if players[i].games < players[i].quota]
        if progress and cache.played and cache.played % 100 == 0:
            print(f"  {number + 1}/{count} games ({cache.played} played, {time.perf_counter() - started:.0f} s)")
            cache.save()
    cache.save()
    return players, games


def pair_outcomes(game: Game) -> list[tuple[int, int, float]]:
    """(i, j, S_ij) for every pair of the game, i before j in seat order."""
    out = []
    for a in range(len(game.players)):
        for b in range(a + 1, len(game.players)):
            mine, theirs = game.totals[a], game.totals[b]
            out.append((a, b, 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0))
    return out


def true_levels(players: Sequence[Player], games: Sequence[Game]) -> dict[str, float]:
    """The Bradley-Terry level of each kind in Elo points (mean 0), from every pair of every game."""
    kinds = sorted({player.kind for player in players})
    index = {kind: n for n, kind in enumerate(kinds)}
    wins = [[0.0] * len(kinds) for _ in kinds]
    for game in games:
        for a, b, score in pair_outcomes(game):
            ka, kb = index[players[game.players[a]].kind], index[players[game.players[b]].kind]
            wins[ka][kb] += score
            wins[kb][ka] += 1.0 - score
    strength = [1.0] * len(kinds)
    for _ in range(2000):  # Zermelo's iteration (minorization-maximization)
        updated = []
        for k in range(len(kinds)):
            won = sum(wins[k]) + 0.5  # a half win and a half loss against a virtual equal: no infinities
            weight = sum(
                (wins[k][m] + wins[m][k]) / (strength[k] + strength[m]) for m in range(len(kinds)) if m != k
            ) + 1.0 / (strength[k] + 1.0)
            updated.append(won / weight)
        mean_log = statistics.fmean(math.log(s) for s in updated)
        strength = [s / math.exp(mean_log) for s in updated]
    return {kind: 400.0 * math.log10(strength[index[kind]]) for kind in kinds}


class System:
    """A rating system fed the stream: estimates (Elo scale) and pair predictions."""

    name = ""
    has_interval = True

    def estimate(self, player: int) -> tuple[float, float]:
        raise NotImplementedError

    def predict(self, mine: int, theirs: int) -> float:
        raise NotImplementedError

    def rate(self, game: Game) -> None:
        raise NotImplementedError


class Arena(System):
    name = "arena"

    def __init__(self, rule: int = elo.RULE, share: float = elo.MARGIN_SHARE) -> None:
        self.state: dict[int, tuple[float, float]] = {}
        self.rule, self.share = rule, share
        if rule != elo.RULE:
            self.name = f"arena rule {rule}"
        elif share != elo.MARGIN_SHARE:
            self.name = f"arena, margin share {share:g}"

    def estimate(self, player: int) -> tuple[float, float]:
        return self.state.get(player, (elo.INITIAL_RATING, elo.INITIAL_DEVIATION))

    def predict(self, mine: int, theirs: int) -> float:
        return elo.win_probability(self.estimate(mine), self.estimate(theirs))

    def rate(self, game: Game) -> None:
        after = elo.rate_game([self.estimate(i) for i in game.players], game.totals, rule=self.rule, share=self.share)
        self.state.update(zip(game.players, after, strict=True))


class FixedK(System):
    name = "fixed-K"
    has_interval = False

    def __init__(self) -> None:
        self.state: dict[int, tuple[float, int]] = {}

    def estimate(self, player: int) -> tuple[float, float]:
        return (self.state.get(player, (elo.INITIAL_RATING, 0))[0], 0.0)

    def predict(self, mine: int, theirs: int) -> float:
        return elo.expected(self.estimate(mine)[0], self.estimate(theirs)[0])

    def rate(self, game: Game) -> None:
        now = [self.state.get(i, (elo.INITIAL_RATING, 0)) for i in game.players]
        after = elo.fixed_k_ratings([r for r, _ in now], game.totals, [n for _, n in now])
        for i, (_, n), rating in zip(game.players, now, after, strict=True):
            self.state[i] = (rating, n + 1)


def _ranks(totals: Sequence[int]) -> list[int]:
    """0 for the best total; equal totals share a rank."""
    return [sum(1 for other in totals if other > total) for total in totals]


class Bayesian(System):
    """Common to TrueSkill and OpenSkill: (μ, σ) per player, a normal pair prediction."""

    beta = 25.0 / 6.0

    def __init__(self) -> None:
        self.state: dict[int, tuple[float, float]] = {}

    def mu_sigma(self, player: int) -> tuple[float, float]:
        return self.state.get(player, (25.0, 25.0 / 3.0))

    def estimate(self, player: int) -> tuple[float, float]:
        mu, sigma = self.mu_sigma(player)
        return (elo.INITIAL_RATING + (mu - 25.0) * ELO_PER_UNIT, sigma * ELO_PER_UNIT)

    def predict(self, mine: int, theirs: int) -> float:
        (mu_a, sigma_a), (mu_b, sigma_b) = self.mu_sigma(mine), self.mu_sigma(theirs)
        spread = math.sqrt(2.0 * self.beta**2 + sigma_a**2 + sigma_b**2)
        return 0.5 * (1.0 + math.erf((mu_a - mu_b) / (spread * math.sqrt(2.0))))


class TrueSkill(Bayesian):
    name = "TrueSkill"

    def __init__(self) -> None:
        super().__init__()
        self.env = trueskill.TrueSkill()

    def rate(self, game: Game) -> None:
        groups = [(self.env.create_rating(*self.mu_sigma(i)),) for i in game.players]
        rated = self.env.rate(groups, ranks=_ranks(game.totals))
        for i, (rating,) in zip(game.players, rated, strict=True):
            self.state[i] = (float(rating.mu), float(rating.sigma))


class OpenSkill(Bayesian):
    """Plackett-Luce: a logistic win probability, 1 / (1 + e^(-Δμ / c)), c = √(2β² + σ² + σ'²)."""

    name = "OpenSkill"
    per_unit = 400.0 / math.log(10.0) / (math.sqrt(2.0) * 25.0 / 6.0)

    def __init__(self) -> None:
        super().__init__()
        self.model = openskill.models.PlackettLuce()

    def estimate(self, player: int) -> tuple[float, float]:
        mu, sigma = self.mu_sigma(player)
        return (elo.INITIAL_RATING + (mu - 25.0) * self.per_unit, sigma * self.per_unit)

    def predict(self, mine: int, theirs: int) -> float:
        (mu_a, sigma_a), (mu_b, sigma_b) = self.mu_sigma(mine), self.mu_sigma(theirs)
        spread = math.sqrt(2.0 * self.beta**2 + sigma_a**2 + sigma_b**2)
        return 1.0 / (1.0 + math.exp(-(mu_a - mu_b) / spread))

    def rate(self, game: Game) -> None:
        teams = [[self.model.rating(*self.mu_sigma(i))] for i in game.players]
        rated = self.model.rate(teams, ranks=[float(rank) for rank in _ranks(game.totals)])
        for i, (rating,) in zip(game.players, rated, strict=True):
            self.state[i] = (float(rating.mu), float(rating.sigma))


@dataclass
class Result:
    name: str
    has_interval: bool
    errors: dict[int, list[float]] = field(default_factory=lambda: {n: [] for n in CHECKPOINTS})
    # After 10 games: the error as a share of the system's house-ladder span at that moment.
    shares: list[float] = field(default_factory=list)
    covered: list[bool] = field(default_factory=list)
    covered_by_kind: dict[str, list[bool]] = field(default_factory=dict)
    losses: list[float] = field(default_factory=list)  # per game, the mean over its pairs
    spearman: float = math.nan
    house: dict[int, list[float]] = field(default_factory=dict)
    span: float = math.nan  # of the house ladder, at the end


def _log_loss(probability: float, score: float) -> float:
    p = min(max(probability, 1e-9), 1.0 - 1e-9)
    return -(score * math.log(p) + (1.0 - score) * math.log(1.0 - p))


def _ranked(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    at = 0
    while at < len(order):
        end = at
        while end + 1 < len(order) and values[order[end + 1]] == values[order[at]]:
            end += 1
        for k in range(at, end + 1):
            ranks[order[k]] = (at + end) / 2.0
        at = end + 1
    return ranks


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    ra, rb = _ranked(a), _ranked(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    return cov / math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))


def placed_level(system: System, house: Sequence[Player], levels: dict[str, float], kind: str) -> float:
    """Where a bot of `kind` belongs on `system`'s scale: the rating of the house bot of its kind, or
    between the two house bots around its true level, in proportion (beyond the ladder, the nearest
    rung's segment extended)."""
    rungs = sorted((levels[bot.kind], system.estimate(bot.id)[0]) for bot in house)
    level = levels[kind]
    for rung_level, rating in rungs:
        if rung_level == level:
            return rating
    below = max((r for r in rungs if r[0] < level), default=rungs[0])
    above = min((r for r in rungs if r[0] > level), default=rungs[-1])
    if below == above:  # beyond the ladder: the nearest segment
        below, above = (rungs[0], rungs[1]) if level < rungs[0][0] else (rungs[-2], rungs[-1])
    share = (level - below[0]) / (above[0] - below[0])
    return below[1] + share * (above[1] - below[1])


def evaluate(
    players: Sequence[Player], games: Sequence[Game], warmup: int, shares: Sequence[float] = ()
) -> list[Result]:
    levels = true_levels(players, games)
    house = [p for p in players if p.house]
    candidates: list[System] = [Arena(share=share) for share in shares]
    systems: list[System] = [Arena(), Arena(rule=1), *candidates, FixedK(), TrueSkill(), OpenSkill()]
    results = [Result(system.name, system.has_interval) for system in systems]
    played = [0] * len(players)
    for number, game in enumerate(games):
        pairs = pair_outcomes(game)
        for system, result in zip(systems, results, strict=True):
            if number >= warmup:
                losses = [_log_loss(system.predict(game.players[a], game.players[b]), score) for a, b, score in pairs]
                result.losses.append(statistics.fmean(losses))
            system.rate(game)
        for i in game.players:
            played[i] += 1
        for i in game.players:
            if players[i].house or played[i] not in CHECKPOINTS:
                continue
            for system, result in zip(systems, results, strict=True):
                rating, deviation = system.estimate(i)
                error = abs(rating - placed_level(system, house, levels, players[i].kind))
                result.errors[played[i]].append(error)
                if played[i] == PLACEMENT_GAMES:
                    rungs = [system.estimate(bot.id)[0] for bot in house]
                    result.shares.append(error / (max(rungs) - min(rungs)))
                if system.has_interval:
                    result.covered.append(error <= elo.Z95 * deviation)
                    result.covered_by_kind.setdefault(players[i].kind, []).append(error <= elo.Z95 * deviation)
        if number >= warmup:
            for system, result in zip(systems, results, strict=True):
                for bot in house:
                    result.house.setdefault(bot.id, []).append(system.estimate(bot.id)[0])
    rated = [p.id for p in players if played[p.id]]
    for system, result in zip(systems, results, strict=True):
        rungs = [system.estimate(bot.id)[0] for bot in house]
        result.span = max(rungs) - min(rungs)
        result.spearman = spearman([system.estimate(i)[0] for i in rated], [levels[players[i].kind] for i in rated])
    return results


def paired_interval(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean of a - b over the games and the half-width of its 95% interval."""
    differences = [x - y for x, y in zip(a, b, strict=True)]
    mean = statistics.fmean(differences)
    return mean, elo.Z95 * statistics.stdev(differences) / math.sqrt(len(differences))


def drift(series: Sequence[float]) -> tuple[float, float, float]:
    """|mean of the last fifth - mean of the first fifth|, the same from the second fifth (once the
    house has settled), and the largest |value - mean of the first fifth|."""
    fifth = max(1, len(series) // 5)
    first = statistics.fmean(series[:fifth])
    second = statistics.fmean(series[fifth : 2 * fifth]) if len(series) >= 2 * fifth else first
    last = statistics.fmean(series[-fifth:])
    return abs(last - first), abs(last - second), max(abs(value - first) for value in series[fifth:])


def margin_spreads(players: Sequence[Player], games: Sequence[Game]) -> dict[int, tuple[float, int]]:
    """By table size: the standard deviation of x_i - x_j over pairs of players of one kind, and the pair count."""
    margins: dict[int, list[int]] = {}
    for game in games:
        for a, b in itertools.permutations(range(len(game.players)), 2):
            if players[game.players[a]].kind == players[game.players[b]].kind:
                margins.setdefault(len(game.players), []).append(game.totals[a] - game.totals[b])
    return {size: (statistics.pstdev(values), len(values)) for size, values in sorted(margins.items())}


def report(
    results: Sequence[Result], players: Sequence[Player], games: Sequence[Game], write: Callable[[str], None]
) -> None:
    by_name = {result.name: result for result in results}
    reference = by_name["TrueSkill"].losses
    arena_share = statistics.fmean(by_name["arena"].shares) if by_name["arena"].shares else math.nan
    arena_span = by_name["arena"].span
    newcomers = sum(1 for p in players if not p.house)
    house = ", ".join(p.kind for p in players if p.house)
    write(f"{len(games)} games, {newcomers} newcomers, house ladder {house}\n")
    write(
        "| system | error after 5 | after 10 | after 30 | after 10, on the arena's scale | log loss"
        " | vs TrueSkill (95%) | Spearman | coverage |"
    )
    write("|---|---|---|---|---|---|---|---|---|")
    for result in results:
        errors = [f"{statistics.fmean(result.errors[n]):.0f}" if result.errors[n] else "-" for n in CHECKPOINTS]
        scaled = f"{statistics.fmean(result.shares) * arena_span:.0f}" if result.shares else "-"
        loss = statistics.fmean(result.losses)
        mean, half = paired_interval(result.losses, reference)
        versus = "—" if result.name == "TrueSkill" else f"{mean:+.4f} ± {half:.4f}"
        coverage = f"{100.0 * statistics.fmean(result.covered):.1f}%" if result.covered else "—"
        write(
            f"| {result.name} | {' | '.join(errors)} | {scaled} | {loss:.4f} | {versus} | {result.spearman:.3f}"
            f" | {coverage} |"
        )
    write(f"\n(the arena's house-ladder span at the end: {arena_span:.0f}; its mean share after 10: {arena_share:.3f})")
    for result in results:
        if result.covered_by_kind:
            kinds = ", ".join(
                f"{kind} {100.0 * statistics.fmean(flags):.0f}%"
                for kind, flags in sorted(result.covered_by_kind.items())
            )
            write(f"coverage by kind, {result.name}: {kinds}")
    spreads = ", ".join(
        f"{size} players {spread:.1f} ({count} pairs)"
        for size, (spread, count) in margin_spreads(players, games).items()
    )
    write(f"margin spread between players of one kind: {spreads}")
    arena = by_name["arena"]
    write("")
    for house_id, series in sorted(arena.house.items()):
        moved, settled, excursion = drift(series)
        write(
            f"house {players[house_id].kind}: mean rating {statistics.fmean(series):.0f}, drift {moved:.1f} points "
            f"(first to last fifth), {settled:.1f} (second to last fifth), largest excursion {excursion:.0f}"
        )


def main(argv: Sequence[str] | None = None, write: Callable[[str], None] = print) -> list[Result]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2500, help="games in the stream, warm-up included")
    parser.add_argument("--warmup", type=int, default=300, help="games of the house ladder alone first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a short stream (600 games) for a check in minutes")
    parser.add_argument("--cache", type=Path, default=CACHE, help="the games' cache file")
    parser.add_argument("--no-cache", action="store_true", help="play every game, keep nothing")
    parser.add_argument("--house", default=",".join(HOUSE), help="the house ladder's kinds")
    parser.add_argument("--newcomers", default=",".join(NEWCOMER_KINDS), help="the newcomers' kinds, in turn")
    parser.add_argument(
        "--spread",
        type=float,
        default=0.0,
        help="placement meets the house bots nearest the rating -/+ this many deviations (default 0: nearest)",
    )
    parser.add_argument(
        "--shares", default="", help="other margin shares of rule 2 to compare on the same games, e.g. 0.25,0.75,1"
    )
    args = parser.parse_args(argv)
    if args.spread < 0:
        parser.error(f"--spread: 0 or more deviations, not {args.spread}")
    kinds = Population(tuple(args.house.split(",")), tuple(args.newcomers.split(",")), args.spread)
    for kind in {*kinds.house, *kinds.newcomers}:
        make_bot(kind, 0)  # an unknown kind fails here, with its name
    count, warmup = (600, 100) if args.quick else (args.games, args.warmup)
    cache = GameCache(None if args.no_cache else args.cache)
    started = time.perf_counter()
    players, games = arena_stream(count, args.seed, warmup, cache, not args.no_cache, kinds)
    write(f"stream ready in {time.perf_counter() - started:.0f} s ({cache.played} games played, the rest cached)")
    try:
        shares = [float(share) for share in args.shares.split(",") if share]
    except ValueError:
        parser.error(f"--shares: numbers between 0 and 1 separated by commas, not {args.shares!r}")
    if any(not 0.0 <= share <= 1.0 for share in shares):
        parser.error(f"--shares: numbers between 0 and 1, not {args.shares!r}")
    results = evaluate(players, games, warmup, shares)
    report(results, players, games, write)
    return results


if __name__ == "__main__":
    main()
