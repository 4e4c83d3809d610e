"""Student's t distribution: its CDF and quantiles, for tests on a few deals (the standard library has none).

A comparison's sequential test looks at the mean of as few as three paired differences, with their
standard deviation estimated from those same three: the normal quantile would call differences far
too often there. The t quantile with n - 1 degrees of freedom is the exact one for normal
differences. The CDF goes through the regularized incomplete beta function (continued fraction,
modified Lentz), the quantile by bisection.

>>> round(t_quantile(0.975, 2), 3), round(t_quantile(0.975, 10), 3), round(t_quantile(0.995, 30), 3)
(4.303, 2.228, 2.75)
>>> round(t_cdf(0.0, 5), 6), round(t_cdf(2.015, 5), 3)
(0.5, 0.95)
"""

from __future__ import annotations

import math


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: int) -> float:
    """P(T <= t) for Student's t with `df` degrees of freedom."""
    if df < 1:
        raise ValueError("the degrees of freedom must be 1 or more")
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: int) -> float:
    """The t with P(T <= t) = p, for 0.5 <= p < 1."""
    if not 0.5 <= p < 1.0:
        raise ValueError("the probability must lie in [0.5, 1)")
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        high *= 2.0
    for _ in range(200):
        middle = (low + high) / 2.0
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2.0
