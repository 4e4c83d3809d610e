"""The rating history chart, drawn as inline SVG on the server."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _


def rating_chart(points: Sequence[float], *, width: int = 640, height: int = 220) -> SafeString:
    """A line of ratings after each rated game, the first point being the rating before the first game."""
    if len(points) < 2:
        return mark_safe("")
    left, right, top, bottom = 48, 12, 14, 28
    low, high = min(points), max(points)
    if high - low < 20:
        low, high = low - 10, high + 10
    span_x = width - left - right
    span_y = height - top - bottom

    def x(i: int) -> float:
        return left + span_x * i / (len(points) - 1)

    def y(value: float) -> float:
        return top + span_y * (high - value) / (high - low)

    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(points))
    ticks = []
    for k in range(5):
        value = low + (high - low) * k / 4
        ticks.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(value):.1f}" y2="{y(value):.1f}" class="grid"/>'
            f'<text x="{left - 6}" y="{y(value):.1f}" dy=".35em" text-anchor="end">{value:.0f}</text>'
        )
    games = len(points) - 1
    label = _("Rating over %(games)d rated games, from %(first).0f to %(last).0f") % {
        "games": games,
        "first": points[0],
        "last": points[-1],
    }
    last_x, last_y = x(len(points) - 1), y(points[-1])
    # The axis' words, outside the markup so that the translation tools find them.
    first_game = _("first game")
    last_game = _("game %(n)d") % {"n": games}
    return mark_safe(
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label)}">'
        f"<title>{escape(label)}</title>{''.join(ticks)}"
        f'<polyline points="{line}" class="line"/>'
        f'<circle cx="{last_x:.1f}" cy="{last_y:.1f}" r="4" class="last"/>'
        f'<text x="{left}" y="{height - 8}">{escape(first_game)}</text>'
        f'<text x="{width - right}" y="{height - 8}" text-anchor="end">{escape(last_game)}</text>'
        "</svg>"
    )
