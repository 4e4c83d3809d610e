"""Is bot A better than bot B? Duplicate deals, every seat, paired differences with 95% intervals.

Each deal is played by A in every seat against the same opponents, then by B in exactly the same
seats against the same opponents seeded the same way: the luck of the deal and of the opponents is
shared, so the per-deal difference A - B measures the bots, and its spread is far smaller than the
spread of the scores themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .seating import NamedBot, Played, play_lineup
from .simulation import Estimate


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

    def verdict(self) -> str:
        a, b = self.a.label, self.b.label
        score = self.score_diff
        placing = self.placing_diff
        if score.n < 2:
            return "one deal cannot tell two bots apart: play more deals (--deals)"
        score_known = abs(score.mean) > score.half_width
        placing_known = abs(placing.mean) > placing.half_width
        if not score_known and not placing_known:
            return (
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
            return text
        better, worse = (a, b) if placing.mean < 0 else (b, a)
        return (
            f"{better} places better than {worse} ({abs(placing.mean):.2f} on average, 95% significant), "
            "with no significant difference in score"
        )


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
) -> Comparison:
    players = len(against) + 1
    per_deal: dict[str, tuple[list[float], list[float]]] = {"a": ([], []), "b": ([], [])}
    forfeits = {"a": 0, "b": 0}
    for deal in range(deals):
        for key, bot in (("a", a), ("b", b)):
            scores, placings = [], []
            for seat, lineup in enumerate(seatings(bot, against)):
                played = play_lineup(lineup, seed + deal, marianne=marianne, with_record=False)
                result = played.result
                scores.append(float(result.totals[seat]))
                if played.forfeits[seat] is not None:
                    forfeits[key] += 1
                placings.append(float(played.placings[seat]))
                if on_game is not None:
                    on_game(played)
            per_deal[key][0].append(sum(scores) / players)
            per_deal[key][1].append(sum(placings) / players)
    sides = {
        key: Side(
            bot.label,
            Estimate.of(per_deal[key][0]),
            Estimate.of(per_deal[key][1]),
            forfeits[key],
            deals * players,
        )
        for key, bot in (("a", a), ("b", b))
    }
    score_diff = Estimate.of([x - y for x, y in zip(per_deal["a"][0], per_deal["b"][0], strict=True)])
    placing_diff = Estimate.of([x - y for x, y in zip(per_deal["a"][1], per_deal["b"][1], strict=True)])
    return Comparison(sides["a"], sides["b"], score_diff, placing_diff, deals, players)
