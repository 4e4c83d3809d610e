"""Is bot A better than bot B? Duplicate deals, every seat, paired differences with 95% intervals.

Each deal is played by A in every seat against the same opponents, then by B in exactly the same
seats against the same opponents seeded the same way: the luck of the deal and of the opponents is
shared, so the per-deal difference A - B measures the bots, and its spread is far smaller than the
spread of the scores themselves.

A comparison is sequential: after each deal (from the third) it looks at the paired score
differences and stops as soon as the answer is clear (`Stopping`), at most at the deals asked for.
It stops with "better" when the interval of the mean difference excludes 0, and with "no
difference" when that interval lies within ±margin points per game. Every look is a test, so each
uses the level alpha divided by the number of possible looks (Bonferroni): over the whole
comparison the chance of calling a difference where there is none stays under alpha (5%), and so
does the chance of calling "no difference" where the true difference is the margin or more.

>>> rule = Stopping(max_deals=30)
>>> rule.decide([0.0, 0.0, 0.0])  # identical play on three deals
'same'
>>> rule.decide([9.5, 11.0, 10.2])
'better'
>>> rule.decide([3.0, -2.0, 0.5]) is None  # not clear yet: play on
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from .seating import NamedBot, Played, play_lineup
from .simulation import Estimate

# The standard error assumed at least: bots that play identically on every deal differ by exactly 0,
# and three zeros are then "no difference", not an interval of width 0 that proves anything more.
SE_FLOOR = 0.05

# Plays one deal's lineups (A's seatings then B's), all dealt from one seed; the default plays them
# one after the other. The server plays them side by side in lockstep (botclient.lockstep).
PlayDeal = Callable[[Sequence[Sequence[NamedBot]], int, bool], list[Played]]


def play_one_by_one(lineups: Sequence[Sequence[NamedBot]], seed: int, marianne: bool) -> list[Played]:
    return [play_lineup(lineup, seed, marianne=marianne, with_record=False) for lineup in lineups]


@dataclass(frozen=True)
class Stopping:
    """When a sequential comparison may stop (see the module's docstring)."""

    max_deals: int
    min_deals: int = 3
    margin: float = 1.0  # points per game: a smaller difference counts as no difference
    alpha: float = 0.05

    @property
    def looks(self) -> int:
        return max(1, self.max_deals - self.min_deals + 1)

    @property
    def z(self) -> float:
        return NormalDist().inv_cdf(1 - self.alpha / (2 * self.looks))

    def decide(self, diffs: Sequence[float]) -> str | None:
        """'better' (A or B, by the sign of the mean), 'same', or None to play on."""
        n = len(diffs)
        if n < self.min_deals:
            return None
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        half = self.z * max(math.sqrt(variance / n), SE_FLOOR)
        if abs(mean) > half:
            return "better"
        if abs(mean) + half < self.margin:
            return "same"
        return None


@dataclass(frozen=True)
class Side:
    label: str
    score: Estimate  # per deal, the mean over its seats
    placing: Estimate  # 1 = first; a forfeiter below every seat that did not forfeit (games.part_du_chef.placing)
    forfeits: int
    games: int


@dataclass(frozen=True)
class Comparison:
    a: Side
    b: Side
    score_diff: Estimate  # A - B per deal: positive means A scores more
    placing_diff: Estimate  # A - B per deal: negative means A places better
    deals: int
    players: int
    # The seeds of the deals played, in order: `part-du-chef compare --seeds` plays them again.
    seeds: tuple[int, ...] = ()
    # The sequential rule and its decision: "better", "same", or None where it did not decide.
    stopping: Stopping | None = None
    stopped: str | None = None

    def verdict(self) -> str:
        a, b = self.a.label, self.b.label
        score = self.score_diff
        placing = self.placing_diff
        if self.stopping is not None and self.stopped is not None:
            rule = self.stopping
            after = f"stopped after {self.deals} of at most {rule.max_deals} deals (sequential test, 95%)"
            if self.stopped == "same":
                return (
                    f"no difference between {a} and {b}: less than {rule.margin:g} points per game either way; {after}"
                )
            better, worse = (a, b) if score.mean > 0 else (b, a)
            return f"{better} is better than {worse}: {abs(score.mean):.2f} points per game more; {after}"
        if score.n < 2:
            return "one deal cannot tell two bots apart: play more deals (--deals)"
        if self.stopping is not None and self.deals >= self.stopping.max_deals:
            undecided = f"the sequential test did not decide within {self.deals} deals; "
        else:
            undecided = ""
        score_known = abs(score.mean) > score.half_width
        placing_known = abs(placing.mean) > placing.half_width
        if not score_known and not placing_known:
            return undecided + (
                f"no significant difference between {a} and {b} over {self.deals} deals: "
                f"the 95% intervals of both differences contain 0 (more deals detect smaller differences)"
            )
        if score_known:
            better, worse = (a, b) if score.mean > 0 else (b, a)
            text = f"{better} is better than {worse}: {abs(score.mean):.2f} points per game more (95% significant)"
            if placing_known and (placing.mean < 0) == (score.mean > 0):
                text += f", and it places {abs(placing.mean):.2f} better on average"
            elif placing_known:
                text += f", although {worse} places {abs(placing.mean):.2f} better on average"
            return undecided + text
        better, worse = (a, b) if placing.mean < 0 else (b, a)
        return undecided + (
            f"{better} places better than {worse} ({abs(placing.mean):.2f} on average, 95% significant), "
            "with no significant difference in score"
        )


def format_seeds(seeds: Sequence[int]) -> str:
    """Seeds written short, runs of consecutive seeds as ranges: what `--seeds` reads back.

    >>> format_seeds([17, 18, 19, 40])
    '17..19,40'
    """
    parts: list[str] = []
    start = previous = None
    for seed in seeds:
        if previous is not None and seed == previous + 1:
            previous = seed
            continue
        if start is not None:
            parts.append(f"{start}..{previous}" if previous != start else f"{start}")
        start = previous = seed
    if start is not None:
        parts.append(f"{start}..{previous}" if previous != start else f"{start}")
    return ",".join(parts)


def seatings(bot: NamedBot, against: Sequence[NamedBot]) -> list[list[NamedBot]]:
    """The bot in every seat in turn, the opponents around it in their given order."""
    return [[*against[:seat], bot, *against[seat:]] for seat in range(len(against) + 1)]


def compare(
    a: NamedBot,
    b: NamedBot,
    against: Sequence[NamedBot],
    deals: int,
    seed: int,
    *,
    marianne: bool = False,
    on_game: Callable[[Played], None] | None = None,
    seeds: Sequence[int] | None = None,
    stopping: Stopping | None = None,
    play_deal: PlayDeal = play_one_by_one,
) -> Comparison:
    """Compare A with B over up to `deals` duplicate deals dealt from `seeds` (default seed, seed + 1, ...).

    With `stopping`, the comparison stops as soon as its rule decides (after whole deals only).
    """
    deal_seeds = list(seeds) if seeds is not None else [seed + deal for deal in range(deals)]
    players = len(against) + 1
    per_deal: dict[str, tuple[list[float], list[float]]] = {"a": ([], []), "b": ([], [])}
    forfeits = {"a": 0, "b": 0}
    played_seeds: list[int] = []
    stopped: str | None = None
    sides = (("a", a), ("b", b))
    for deal_seed in deal_seeds:
        lineups = [lineup for _, bot in sides for lineup in seatings(bot, against)]
        games = play_deal(lineups, deal_seed, marianne)
        for index, (key, _) in enumerate(sides):
            scores, placings = [], []
            for seat in range(players):
                played = games[index * players + seat]
                scores.append(float(played.result.totals[seat]))
                if played.forfeits[seat] is not None:
                    forfeits[key] += 1
                placings.append(float(played.placings[seat]))
                if on_game is not None:
                    on_game(played)
            per_deal[key][0].append(sum(scores) / players)
            per_deal[key][1].append(sum(placings) / players)
        played_seeds.append(deal_seed)
        if stopping is not None:
            stopped = stopping.decide([x - y for x, y in zip(per_deal["a"][0], per_deal["b"][0], strict=True)])
            if stopped is not None:
                break
    count = len(played_seeds)
    summary = {
        key: Side(
            bot.label, Estimate.of(per_deal[key][0]), Estimate.of(per_deal[key][1]), forfeits[key], count * players
        )
        for key, bot in sides
    }
    score_diff = Estimate.of([x - y for x, y in zip(per_deal["a"][0], per_deal["b"][0], strict=True)])
    placing_diff = Estimate.of([x - y for x, y in zip(per_deal["a"][1], per_deal["b"][1], strict=True)])
    return Comparison(
        summary["a"], summary["b"], score_diff, placing_diff, count, players, tuple(played_seeds), stopping, stopped
    )
