"""Multiplayer Elo with a deviation per rating, as documented in docs/ratings.md. Pure functions.

Each player has a rating R (the Elo scale: 400 points are 10 to 1 odds) and a deviation D, the
standard error of R on that same scale (Glicko's RD). A rated game with N players moves every
rating once, from the pre-game values, comparing each pair of players (i, j):

    q = ln(10) / 400,   g(D) = 1 / sqrt(1 + 3 q² D² / π²),   w = 2 / N (pair_weight)
    S_ij = 1 if i placed above j, 1/2 if equal, 0 if below
    E_ij = 1 / (1 + 10^(-g(D_j) (R_i - R_j) / 400))
    1/D_i'² = 1/D_i² + q² Σ_j w g(D_j)² E_ij (1 - E_ij)           (the game's information)
    R_i'    = R_i + q D_i'² Σ_j w g(D_j) (S_ij - E_ij)             (K_i = q D_i'² w g(D_j))
    D_i'    = max(MIN_DEVIATION, D_i')

A new player starts at (1500, 350): its first moves are large (a K above 200) and shrink as its
deviation does; a settled player (D at MIN_DEVIATION = 30) moves as a K = 5 Elo player. Between games a deviation
grows with idle time, D² + c² t (t in whole days), up to the initial deviation. The 95% interval of a
rating is R ± 1.96 D.

A player that forfeited counts as below every player that did not, whatever the totals.

Rule 2 (RULE, every game since ledger rows name their rule) also scores each pair by its margin of
points: S_ij = (1 - m) O_ij + m Φ((x_i - x_j) / s_N), O_ij the order above, s_N the spread of the
margin between two players of one level at a table of N (MARGIN_SCALE), m = MARGIN_SHARE. A close
second place says more than "second"; a rout more than "first". Between forfeiters and
non-forfeiters, the order alone. Rule 1 (S_ij = O_ij) replays the rows written before it.

Two new players; the winner gains what the loser loses:

>>> [(round(r, 1), round(d, 1)) for r, d in rate_game([(1500.0, 350.0), (1500.0, 350.0)], [40, 25], rule=1)]
[(1662.2, 290.2), (1337.8, 290.2)]
>>> [(round(r, 1), round(d, 1)) for r, d in rate_game([(1500.0, 350.0), (1500.0, 350.0)], [40, 25])]
[(1612.7, 290.2), (1387.3, 290.2)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

INITIAL_RATING = 1500.0
RATING_FLOOR = 100.0
PROVISIONAL_GAMES = 10

INITIAL_DEVIATION = 350.0
# The floor keeps a settled rating able to follow a pool that changes around it.
MIN_DEVIATION = 30.0
# A new version of a submitted bot keeps its rating with at least this deviation.
NEW_VERSION_DEVIATION = 200.0
# A rating is provisional while its deviation is above this (about ten rated games for a newcomer).
PROVISIONAL_DEVIATION = 150.0
# Growth of an idle rating: D² + c² t, t in days (from MIN_DEVIATION back to 350 in about 3 years).
IDLE_GROWTH_PER_DAY = 10.0
# The 95% interval: R ± Z95 D.
Z95 = 1.959964

_Q = math.log(10.0) / 400.0

# The rules a rated game may have been rated by (each ledger row names its own), and the rule of new games.
RULES = (1, 2)
RULE = 2
# Rule 2: the share of each pair's score taken from its margin of points, and the spread of the margin
# between two players of the same level at a table of N players (the standard deviation of x_i - x_j
# over pairs of bots of one kind, measured on the arena's built-in bots: docs/ratings.md).
MARGIN_SHARE = 0.5
MARGIN_SCALE = {2: 29.4, 3: 20.1, 4: 17.7, 5: 17.0}


def expected(rating: float, opponent: float) -> float:
    """Expected score of `rating` against `opponent` (plain Elo, both deviations zero).

    >>> expected(1500.0, 1500.0)
    0.5
    >>> round(expected(1900.0, 1500.0), 6)
    0.909091
    """
    power: float = 10.0 ** ((opponent - rating) / 400.0)  # a float to a real power: a float
    return 1.0 / (1.0 + power)


def g(deviation: float) -> float:
    """How much an opponent's uncertainty flattens the expectation against it (1 when certain).

    >>> g(0.0), round(g(350.0), 4)
    (1.0, 0.6691)
    """
    return 1.0 / math.sqrt(1.0 + 3.0 * _Q * _Q * deviation * deviation / (math.pi * math.pi))


def win_probability(mine: tuple[float, float], theirs: tuple[float, float]) -> float:
    """Probability that `mine` = (rating, deviation) places above `theirs`, both uncertainties counted.

    >>> round(win_probability((1700.0, 30.0), (1500.0, 30.0)), 4)
    0.7579
    >>> round(win_probability((1700.0, 350.0), (1500.0, 30.0)), 4)
    0.6832
    """
    spread = g(math.hypot(mine[1], theirs[1]))
    power: float = 10.0 ** (-spread * (mine[0] - theirs[0]) / 400.0)
    return 1.0 / (1.0 + power)


def idle(deviation: float, days: float) -> float:
    """The deviation after `days` without a rated game.

    >>> idle(30.0, 0.0), round(idle(30.0, 30.0), 1), idle(300.0, 10_000.0)
    (30.0, 62.4, 350.0)
    """
    if days <= 0:
        return deviation
    return min(INITIAL_DEVIATION, math.sqrt(deviation * deviation + IDLE_GROWTH_PER_DAY**2 * days))


def interval(rating: float, deviation: float) -> tuple[float, float]:
    """The 95% interval of a rating.

    >>> interval(1500.0, 100.0)
    (1304.0036, 1695.9964)
    """
    return (round(rating - Z95 * deviation, 4), round(rating + Z95 * deviation, 4))


def is_provisional(deviation: float) -> bool:
    return deviation > PROVISIONAL_DEVIATION


def pair_weight(players: int) -> float:
    """How much each pair of an N-player game counts: 2/N, so a game counts 2 (N - 1) / N pairs in all.

    The pairs of one game share its deal and its play, so counting each as a game of two would
    overstate what the game tells (the intervals would be too narrow).

    >>> [pair_weight(n) for n in (2, 3, 4)]
    [1.0, 0.6666666666666666, 0.5]
    """
    return 2.0 / players


def outcome(mine: tuple[bool, float], theirs: tuple[bool, float]) -> float:
    """S_ij from (forfeited, total) of both players: forfeits first, then totals.

    >>> outcome((False, 10), (False, 3)), outcome((False, 3), (False, 3)), outcome((False, 3), (False, 10))
    (1.0, 0.5, 0.0)
    >>> outcome((False, 0), (True, 50)), outcome((True, 50), (False, 0))
    (1.0, 0.0)
    """
    my_key = (not mine[0], mine[1])
    their_key = (not theirs[0], theirs[1])
    if my_key > their_key:
        return 1.0
    if my_key == their_key:
        return 0.5
    return 0.0


def pair_score(
    mine: tuple[bool, float], theirs: tuple[bool, float], players: int, rule: int = RULE, share: float = MARGIN_SHARE
) -> float:
    """S_ij by `rule`: the order alone (rule 1), or the order and the margin of points (rule 2), the
    margin counting for `share` of it (MARGIN_SHARE; other shares are for comparing candidates).

    >>> pair_score((False, 30), (False, 20), 3, rule=1), round(pair_score((False, 30), (False, 20), 3), 4)
    (1.0, 0.8453)
    >>> round(pair_score((False, 21), (False, 20), 3), 4), pair_score((False, 20), (False, 20), 3)
    (0.7599, 0.5)
    >>> pair_score((True, 60), (False, 10), 2), pair_score((False, 10), (True, 60), 2)
    (0.0, 1.0)
    """
    order = outcome(mine, theirs)
    if rule == 1 or mine[0] != theirs[0]:
        return order
    if rule != 2:
        raise ValueError(f"unknown rating rule {rule}, the rules are {RULES}")
    margin = (mine[1] - theirs[1]) / MARGIN_SCALE[players]
    return (1.0 - share) * order + share * 0.5 * math.erfc(-margin / math.sqrt(2.0))


def _keys(count: int, totals: Sequence[float], forfeited: Sequence[bool] | None) -> list[tuple[bool, float]]:
    if count < 2:
        raise ValueError(f"a rated game needs at least 2 players, got {count}")
    if len(totals) != count:
        raise ValueError("ratings and totals must have one entry per player")
    flags = list(forfeited) if forfeited is not None else [False] * count
    if len(flags) != count:
        raise ValueError("forfeited must have one entry per player")
    return [(flags[i], float(totals[i])) for i in range(count)]


def rate_game(
    players: Sequence[tuple[float, float]],
    totals: Sequence[float],
    forfeited: Sequence[bool] | None = None,
    rule: int = RULE,
    share: float = MARGIN_SHARE,
) -> list[tuple[float, float]]:
    """Post-game (rating, deviation) of each player, all computed from the pre-game values, by `rule`.

    Three new players, distinct totals: the middle one keeps its rating, all gain certainty. By the
    order alone (rule 1) the first gains what it would for any lead; with margins (rule 2) a lead of
    10 points moves it less:

    >>> [(round(r, 1), round(d, 1)) for r, d in rate_game([(1500.0, 350.0)] * 3, [30, 20, 10], rule=1)]
    [(1695.9, 276.2), (1500.0, 276.2), (1304.1, 276.2)]
    >>> [(round(r, 1), round(d, 1)) for r, d in rate_game([(1500.0, 350.0)] * 3, [30, 20, 10])]
    [(1649.9, 276.2), (1500.0, 276.2), (1350.1, 276.2)]

    A newcomer beating a settled player moves far, the settled player a little:

    >>> [(round(r, 1), round(d, 1)) for r, d in rate_game([(1500.0, 350.0), (1700.0, 30.0)], [30, 20], rule=1)]
    [(1806.8, 265.6), (1697.6, 30.0)]

    Two settled players: a K of about 5:

    >>> [(round(r, 2), round(d, 1)) for r, d in rate_game([(1500.0, 30.0), (1500.0, 30.0)], [9, 3], rule=1)]
    [(1502.56, 30.0), (1497.44, 30.0)]

    Nobody drops below 100, and a forfeiter ranks last even with the best total (the order alone):

    >>> [round(r, 1) for r, _ in rate_game([(105.0, 350.0), (300.0, 350.0)], [1, 9])]
    [100.0, 342.0]
    >>> [round(r, 1) for r, _ in rate_game([(1500.0, 350.0)] * 2, [60, 10], forfeited=[True, False])]
    [1337.8, 1662.2]
    """
    count = len(players)
    keys = _keys(count, totals, forfeited)
    if rule not in RULES:
        raise ValueError(f"unknown rating rule {rule}, the rules are {RULES}")
    if rule == 2 and count not in MARGIN_SCALE:
        raise ValueError(f"rule 2 rates games of 2 to 5 players, got {count}")
    weight = pair_weight(count)
    result = []
    for i, (rating, deviation) in enumerate(players):
        information = 0.0
        surprise = 0.0
        for j, (other, other_deviation) in enumerate(players):
            if j == i:
                continue
            spread = g(other_deviation)
            power: float = 10.0 ** (-spread * (rating - other) / 400.0)
            chance = 1.0 / (1.0 + power)
            information += weight * spread * spread * chance * (1.0 - chance)
            surprise += weight * spread * (pair_score(keys[i], keys[j], count, rule, share) - chance)
        variance = 1.0 / (1.0 / (deviation * deviation) + _Q * _Q * information)
        moved = rating + _Q * variance * surprise
        result.append((max(RATING_FLOOR, moved), max(MIN_DEVIATION, math.sqrt(variance))))
    return result


# --- The formula before deviations, kept to replay ledger rows written with it ---------------------


def k_factor(games: int) -> float:
    """K by the number of rated games played before this one (ledger rows without a deviation).

    >>> [k_factor(n) for n in (0, 9, 10, 19, 20, 500)]
    [96.0, 96.0, 64.0, 64.0, 32.0, 32.0]
    """
    if games < 0:
        raise ValueError(f"a rated-game count cannot be negative, got {games}")
    if games < 10:
        return 96.0
    if games < 20:
        return 64.0
    return 32.0


def fixed_k_ratings(
    ratings: Sequence[float],
    totals: Sequence[float],
    games: Sequence[int],
    forfeited: Sequence[bool] | None = None,
) -> list[float]:
    """Post-game ratings by the fixed-K formula (K by games played, divided by N - 1).

    >>> fixed_k_ratings([1500.0] * 3, [30, 20, 10], [0, 0, 0])
    [1548.0, 1500.0, 1452.0]
    >>> [round(r, 4) for r in fixed_k_ratings([1600.0, 1500.0, 1400.0], [12, 12, 5], [3, 15, 40])]
    [1604.809, 1516.0, 1390.397]
    """
    count = len(ratings)
    keys = _keys(count, totals, forfeited)
    if len(games) != count:
        raise ValueError("ratings, totals and games must have one entry per player")
    result = []
    for i in range(count):
        delta = 0.0
        for j in range(count):
            if j != i:
                delta += outcome(keys[i], keys[j]) - expected(ratings[i], ratings[j])
        updated = ratings[i] + k_factor(games[i]) / (count - 1) * delta
        result.append(max(RATING_FLOOR, updated))
    return result
