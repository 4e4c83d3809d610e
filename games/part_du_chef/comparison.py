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
does the chance of calling "no difference" where the true difference is the margin or more. The
interval at n deals is Student's t with n - 1 degrees of freedom (`student.py`): the spread is
estimated from those same few deals, and the normal quantile there called a difference between a
bot and itself in 17% of sequential comparisons (bench/variance_reduction.py --self-runs).

>>> rule = Stopping(max_deals=30)
>>> rule.decide([0.0, 0.0, 0.0]) is None  # identical play on three deals: not yet sure enough
True
>>> rule.decide([0.0, 0.0, 0.0, 0.0])
'same'
>>> rule.decide([9.5, 11.0, 10.2, 10.4])
'better'
>>> rule.decide([3.0, -2.0, 0.5]) is None  # not clear yet: play on
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .control_variates import BASELINE
from .control_variates import correct as correct_score
from .seating import NamedBot, Played, play_lineup
from .simulation import Estimate
from .student import t_quantile

# The standard error assumed at least: bots that play identically on every deal differ by exactly 0,
# and a few zeros are then "no difference", not an interval of width 0 that proves anything more.
SE_FLOOR = 0.05

# Plays one deal's lineups (A's seatings then B's), all dealt from one seed, and gives their games in that
# order. Built-in bots remember nothing: theirs are played one after the other. Other bots' are played by
# their resolver (BotResolver.play_deal): side by side in lockstep (botclient.lockstep), on the server as
# in the `part-du-chef` command, so that a bot that remembers learns at no table what another has not shown.
PlayDeal = Callable[[Sequence[Sequence[NamedBot]], int, bool], list[Played]]


def play_one_by_one(lineups: Sequence[Sequence[NamedBot]], seed: int, marianne: bool) -> list[Played]:
    return [play_lineup(lineup, seed, marianne=marianne, with_record=False) for lineup in lineups]


def deal_player(bots: Sequence[NamedBot]) -> PlayDeal:
    """Who plays the deals of these bots: the resolver of the first that is not built in, else one by one."""
    for bot in bots:
        if bot.resolver is not None:
            return bot.resolver.play_deal
    return play_one_by_one


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

    def critical(self, n: int) -> float:
        """The two-sided quantile of one look at n deals: t with n - 1 degrees of freedom, at alpha / looks."""
        return t_quantile(1 - self.alpha / (2 * self.looks), n - 1)

    def decide(self, diffs: Sequence[float]) -> str | None:
        """'better' (A or B, by the sign of the mean), 'same', or None to play on."""
        n = len(diffs)
        if n < max(2, self.min_deals):
            return None
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        half = self.critical(n) * max(math.sqrt(variance / n), SE_FLOOR)
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
    # A - B per deal with the luck corrected, and the baseline that corrected it: None where any deal
    # was not corrected. Where it is given, the verdict and the sequential test go by it.
    corrected_diff: Estimate | None = None
    baseline: str | None = None

    @property
    def decided_on(self) -> Estimate:
        return self.corrected_diff if self.corrected_diff is not None else self.score_diff

    def variance_ratio(self) -> float | None:
        """How many times less the corrected difference varies than the plain one (deals saved by as much)."""
        corrected = self.corrected_diff
        if corrected is None or self.score_diff.n < 2 or not corrected.half_width > 0:
            return None
        # Both half-widths are z * sd / sqrt(n) over the same deals: their squared ratio is that of the variances.
        return (self.score_diff.half_width / corrected.half_width) ** 2

    def verdict(self) -> str:
        text = self._verdict()
        if self.corrected_diff is not None:
            text += f" [luck-corrected scores, baseline {self.baseline}]"
        return text

    def _verdict(self) -> str:
        a, b = self.a.label, self.b.label
        score = self.decided_on
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


@dataclass(frozen=True)
class DealScores:
    """One duplicate deal's outcome for both bots: each bot's mean score and placing over its seats, its forfeits.

    What a comparison keeps of a deal: a server that plays its deals apart stores one per deal and sums
    them up with `summarize`, exactly as `compare` does when it plays them in turn.
    """

    seed: int
    score_a: float
    score_b: float
    placing_a: float
    placing_b: float
    forfeits_a: int
    forfeits_b: int
    # Per forfeit, in the order of the deal's games (A in every seat, then B): the seat and why it forfeited.
    reasons_a: tuple[tuple[int, str], ...] = ()
    reasons_b: tuple[tuple[int, str], ...] = ()
    # Each bot's mean score with the luck corrected (games.part_du_chef.control_variates), and the
    # baseline that corrected it; None where the deal was not corrected.
    corrected_a: float | None = None
    corrected_b: float | None = None
    baseline: str | None = None

    @property
    def score_diff(self) -> float:
        return self.score_a - self.score_b

    @property
    def corrected_diff(self) -> float | None:
        if self.corrected_a is None or self.corrected_b is None:
            return None
        return self.corrected_a - self.corrected_b

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "score_a": self.score_a,
            "score_b": self.score_b,
            "placing_a": self.placing_a,
            "placing_b": self.placing_b,
            "forfeits_a": self.forfeits_a,
            "forfeits_b": self.forfeits_b,
            "reasons_a": [[seat, reason] for seat, reason in self.reasons_a],
            "reasons_b": [[seat, reason] for seat, reason in self.reasons_b],
            "corrected_a": self.corrected_a,
            "corrected_b": self.corrected_b,
            "baseline": self.baseline,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DealScores:
        return cls(
            int(data["seed"]),
            float(data["score_a"]),
            float(data["score_b"]),
            float(data["placing_a"]),
            float(data["placing_b"]),
            int(data["forfeits_a"]),
            int(data["forfeits_b"]),
            # Deals stored before the reasons were kept have none.
            tuple((int(seat), str(reason)) for seat, reason in data.get("reasons_a") or ()),
            tuple((int(seat), str(reason)) for seat, reason in data.get("reasons_b") or ()),
            # Deals stored before corrections were made have none: their comparison runs on plain scores.
            _optional_float(data.get("corrected_a")),
            _optional_float(data.get("corrected_b")),
            None if data.get("baseline") is None else str(data["baseline"]),
        )


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


def score_deal(games: Sequence[Played], players: int, seed: int, *, correct: bool = True) -> DealScores:
    """A deal's games as `compare` plays them (A in every seat, then B) summed up per bot.

    With `correct`, each bot's score is also corrected for luck from each game's actions
    (games.part_du_chef.control_variates); a deal whose games carry no actions is not corrected.
    """
    sums: list[tuple[float, float, tuple[tuple[int, str], ...], float | None]] = []
    correctable = correct and all(played.history for played in games)
    for side in range(2):
        side_games = games[side * players : (side + 1) * players]
        scores = [float(played.result.totals[seat]) for seat, played in enumerate(side_games)]
        placings = [float(played.placings[seat]) for seat, played in enumerate(side_games)]
        reasons = tuple(
            (seat, reason) for seat, played in enumerate(side_games) if (reason := played.forfeits[seat]) is not None
        )
        corrected = None
        if correctable:
            corrected = sum(corrected_score(played, seat) for seat, played in enumerate(side_games)) / players
        sums.append((sum(scores) / players, sum(placings) / players, reasons, corrected))
    (score_a, placing_a, reasons_a, corrected_a), (score_b, placing_b, reasons_b, corrected_b) = sums
    return DealScores(
        seed,
        score_a,
        score_b,
        placing_a,
        placing_b,
        len(reasons_a),
        len(reasons_b),
        reasons_a,
        reasons_b,
        corrected_a,
        corrected_b,
        BASELINE.name if correctable else None,
    )


def corrected_score(played: Played, seat: int) -> float:
    """The seat's score in this game with its luck corrected (games.part_du_chef.control_variates)."""
    names = [policy or "" for policy in played.policies] or [""] * len(played.result.totals)
    result = played.result
    return correct_score(
        result.seed,
        len(result.totals),
        names,
        played.history,
        seat,
        marianne=played.marianne,
        stand_in=played.stand_in,
    ).corrected


def decision_diffs(deals: Sequence[DealScores]) -> list[float]:
    """What the sequential test looks at: the corrected differences when every deal has one (under one
    baseline), else the plain."""
    corrected = [deal.corrected_diff for deal in deals]
    # Corrections under two baselines are not comparable: such deals are summed up plain.
    if all(diff is not None for diff in corrected) and len({deal.baseline for deal in deals}) <= 1:
        return [diff for diff in corrected if diff is not None]
    return [deal.score_diff for deal in deals]


def settle(deals: Sequence[DealScores], stopping: Stopping | None) -> tuple[int, str | None]:
    """How many of these deals (in order) a sequential comparison plays, and what its rule decided then.

    The rule looks after every deal, as `compare` does; without a rule, or if it never decides, every deal counts.
    """
    if stopping is not None:
        diffs = decision_diffs(deals)
        for count in range(1, len(diffs) + 1):
            decided = stopping.decide(diffs[:count])
            if decided is not None:
                return count, decided
    return len(deals), None


def summarize(
    a_label: str,
    b_label: str,
    deals: Sequence[DealScores],
    players: int,
    stopping: Stopping | None = None,
    stopped: str | None = None,
) -> Comparison:
    """The comparison of these deals (in the order played), with the rule and what it decided."""
    count = len(deals)
    a = Side(
        a_label,
        Estimate.of([deal.score_a for deal in deals]),
        Estimate.of([deal.placing_a for deal in deals]),
        sum(deal.forfeits_a for deal in deals),
        count * players,
    )
    b = Side(
        b_label,
        Estimate.of([deal.score_b for deal in deals]),
        Estimate.of([deal.placing_b for deal in deals]),
        sum(deal.forfeits_b for deal in deals),
        count * players,
    )
    score_diff = Estimate.of([deal.score_diff for deal in deals])
    placing_diff = Estimate.of([deal.placing_a - deal.placing_b for deal in deals])
    seeds = tuple(deal.seed for deal in deals)
    corrected = [deal.corrected_diff for deal in deals]
    baselines = {deal.baseline for deal in deals}
    corrected_diff = None
    baseline = None
    if deals and len(baselines) == 1 and all(diff is not None for diff in corrected):
        corrected_diff = Estimate.of([diff for diff in corrected if diff is not None])
        baseline = baselines.pop()
    return Comparison(
        a, b, score_diff, placing_diff, count, players, seeds, stopping, stopped, corrected_diff, baseline
    )


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
    play_deal: PlayDeal | None = None,
) -> Comparison:
    """Compare A with B over up to `deals` duplicate deals dealt from `seeds` (default seed, seed + 1, ...).

    With `stopping`, the comparison stops as soon as its rule decides (after whole deals only). Each deal
    is played by `play_deal`, by default as `deal_player` says.
    """
    if play_deal is None:
        play_deal = deal_player([a, b, *against])
    deal_seeds = list(seeds) if seeds is not None else [seed + deal for deal in range(deals)]
    players = len(against) + 1
    played: list[DealScores] = []
    stopped: str | None = None
    for deal_seed in deal_seeds:
        lineups = [lineup for bot in (a, b) for lineup in seatings(bot, against)]
        games = play_deal(lineups, deal_seed, marianne)
        if on_game is not None:
            for game in games:
                on_game(game)
        played.append(score_deal(games, players, deal_seed))
        if stopping is not None:
            stopped = stopping.decide(decision_diffs(played))
            if stopped is not None:
                break
    return summarize(a.label, b.label, played, players, stopping, stopped)
