"""Multiplayer Elo, as documented in docs/ratings.md. Pure functions, no database.

For a rated game with N players, pre-game ratings R_i, final totals x_i, rated-game counts n_i:

    S_ij = 1 if x_i > x_j, 1/2 if equal, 0 if lower
    E_ij = 1 / (1 + 10^((R_j - R_i) / 400))
    K(n) = 96 if n < 10, 64 if n < 20, else 32
    R_i' = max(100, R_i + K(n_i) / (N - 1) * sum over j != i of (S_ij - E_ij))

A player that forfeited counts as below every player that did not, whatever the totals.

Two players at 1500 in their first game; the winner gains half of K = 96:

>>> new_ratings([1500.0, 1500.0], [40, 25], [0, 0])
[1548.0, 1452.0]
"""

from __future__ import annotations

from collections.abc import Sequence

INITIAL_RATING = 1500.0
RATING_FLOOR = 100.0
PROVISIONAL_GAMES = 10


def k_factor(games: int) -> float:
    """K by the number of rated games played before this one.

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


def expected(rating: float, opponent: float) -> float:
    """Expected score of `rating` against `opponent`.

    >>> expected(1500.0, 1500.0)
    0.5
    >>> round(expected(1900.0, 1500.0), 6)
    0.909091
    """
    power: float = 10.0 ** ((opponent - rating) / 400.0)  # a float to a real power: a float
    return 1.0 / (1.0 + power)


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


def new_ratings(
    ratings: Sequence[float],
    totals: Sequence[float],
    games: Sequence[int],
    forfeited: Sequence[bool] | None = None,
) -> list[float]:
    """Post-game ratings, all computed from the pre-game ratings.

    Three players, first games, all at 1500, distinct totals:

    >>> new_ratings([1500.0] * 3, [30, 20, 10], [0, 0, 0])
    [1548.0, 1500.0, 1452.0]

    A tie between the two leaders of a mixed field (K = 96, 64, 32):

    >>> [round(r, 4) for r in new_ratings([1600.0, 1500.0, 1400.0], [12, 12, 5], [3, 15, 40])]
    [1604.809, 1516.0, 1390.397]

    Five players at different levels and K (every value rounded only for display):

    >>> [round(r, 4) for r in new_ratings(
    ...     [1500.0, 1620.0, 1380.0, 1710.0, 1450.0], [55, 40, 40, 30, 12], [0, 9, 10, 25, 19])]
    [1552.7672, 1618.4278, 1402.954, 1693.3302, 1426.2556]

    Nobody drops below 100:

    >>> [round(r, 4) for r in new_ratings([105.0, 300.0], [1, 9], [0, 0])]
    [100.0, 323.5724]

    A forfeiter is ranked below the other players even with the best total:

    >>> new_ratings([1500.0, 1500.0], [60, 10], [0, 0], forfeited=[True, False])
    [1452.0, 1548.0]
    """
    count = len(ratings)
    if count < 2:
        raise ValueError(f"a rated game needs at least 2 players, got {count}")
    if len(totals) != count or len(games) != count:
        raise ValueError("ratings, totals and games must have one entry per player")
    flags = list(forfeited) if forfeited is not None else [False] * count
    if len(flags) != count:
        raise ValueError("forfeited must have one entry per player")
    keys = [(flags[i], float(totals[i])) for i in range(count)]
    result = []
    for i in range(count):
        delta = 0.0
        for j in range(count):
            if j != i:
                delta += outcome(keys[i], keys[j]) - expected(ratings[i], ratings[j])
        updated = ratings[i] + k_factor(games[i]) / (count - 1) * delta
        result.append(max(RATING_FLOOR, updated))
    return result
