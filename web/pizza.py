"""Pizzas drawn as SVG rings of 13 slices, on the server.

Every slice carries its sort three ways: a colour, a pattern and a letter, so colour is never the
only cue; olives are dots, the double finisher a gold medallion. A slice's <title> says it in words.
The same markup serves the replay viewer (whose script only changes classes and texts) and the play
table (whose gaps between slices are buttons).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.part_du_chef import DECK, KIND_NAMES
from games.part_du_chef.deck import DISPLAY_NAMES

RING = 13
SORT_COLOURS = {
    "margherita": "#e4574b",
    "reine": "#f29bb8",
    "quatre_fromages": "#f3cf55",
    "vegetarienne": "#6fb04f",
    "truffe": "#8a6240",
    "chili": "#b3121b",
    "burnt": "#3a3a3a",
}


def display_names() -> tuple[str, ...]:
    language = (get_language() or "en").split("-")[0]
    return DISPLAY_NAMES.get({"nb": "no", "nn": "no"}.get(language, language), DISPLAY_NAMES["en"])


def sort_name(kind: int) -> str:
    return str(display_names()[kind])


def letter(kind: int) -> str:
    """One letter per kind in the viewer's language (4 for quatre fromages)."""
    name = KIND_NAMES[kind]
    if name == "quatre_fromages":
        return "4"
    if name == "burnt":
        return "B"  # brûlée, brent: B in every language, never the P of piment
    return str(display_names()[kind][0].upper())


def describe(sid: int) -> str:
    piece = DECK[sid]
    words = [sort_name(piece.kind)]
    if piece.olives:
        words.append(_("%(n)d olives") % {"n": piece.olives} if piece.olives > 1 else _("1 olive"))
    if piece.finisher:
        words.append(_("double finisher"))
    return ", ".join(words)


@dataclass(frozen=True)
class SliceState:
    """How one slice of a drawn pizza stands: free on the table, kept or eaten by a seat."""

    owner: int | None = None
    eaten_by: int | None = None
    moved: bool = False


def _point(cx: float, cy: float, radius: float, angle: float) -> tuple[float, float]:
    return cx + radius * math.cos(angle), cy + radius * math.sin(angle)


def _angle(position: float) -> float:
    return -math.pi / 2 + 2 * math.pi * position / RING


def _f(value: float) -> str:
    return f"{value:.1f}"


def defs() -> SafeString:
    """Patterns for the sorts, once per page (referenced by every ring on it)."""
    patterns = {
        "margherita": '<circle cx="3" cy="3" r="1.3" fill="#fff" fill-opacity=".55"/>',
        "reine": '<path d="M0 6L6 0" stroke="#fff" stroke-width="1.4" stroke-opacity=".7"/>',
        "quatre_fromages": '<circle cx="1.5" cy="1.5" r="1" fill="#8a6d00" fill-opacity=".5"/>'
        '<circle cx="4.5" cy="4.5" r="1" fill="#8a6d00" fill-opacity=".5"/>',
        "vegetarienne": '<path d="M0 0L6 6M6 0L0 6" stroke="#fff" stroke-width=".9" stroke-opacity=".6"/>',
        "truffe": '<path d="M0 3H6" stroke="#000" stroke-width="1.2" stroke-opacity=".35"/>',
        "chili": '<path d="M0 4L1.5 2L3 4L4.5 2L6 4" fill="none" stroke="#ffd0d0" stroke-width=".9"/>',
        "burnt": '<path d="M0 0L6 6" stroke="#777" stroke-width="1.5"/>',
    }
    body = "".join(
        f'<pattern id="pat-{name}" width="6" height="6" patternUnits="userSpaceOnUse">'
        f'<rect width="6" height="6" fill="{SORT_COLOURS[name]}"/>{patterns[name]}</pattern>'
        for name in KIND_NAMES
    )
    return mark_safe(
        f'<svg width="0" height="0" aria-hidden="true" style="position:absolute"><defs>{body}</defs></svg>'
    )


def ring(
    slices: Sequence[int],
    *,
    label: str,
    states: dict[int, SliceState] | None = None,
    cuts: Iterable[int] | None = None,
    size: int = 200,
    gap_buttons: bool = False,
    portion_of: dict[int, int] | None = None,
    seat_marks: Sequence[str] | None = None,
    pizza: int = 0,
    dimmed: bool = False,
) -> SafeString:
    """One pizza: `slices` in ring order (position 0 at the top, clockwise).

    `cuts` draws the cut lines; `gap_buttons` makes each of the 13 gaps a focusable button for the
    play table; `portion_of` maps slice ids to a portion for clicking a portion; `seat_marks` are
    the short names written on kept slices.
    """
    states = states or {}
    cut_set = set(cuts or ())
    seat_marks = seat_marks or []
    c = size / 2
    outer, inner = c - 14, c * 0.32
    parts = [
        f'<svg class="pizza{" dimmed" if dimmed else ""}" viewBox="0 0 {size} {size}" width="{size}" height="{size}" '
        f'role="group" aria-label="{escape(label)}" data-pizza="{pizza}">',
        f'<circle cx="{_f(c)}" cy="{_f(c)}" r="{_f(outer + 4)}" class="crust"/>',
    ]
    for position, sid in enumerate(slices):
        piece = DECK[sid]
        kind = KIND_NAMES[piece.kind]
        a0, a1 = _angle(position), _angle(position + 1)
        x0, y0 = _point(c, c, outer, a0)
        x1, y1 = _point(c, c, outer, a1)
        x2, y2 = _point(c, c, inner, a1)
        x3, y3 = _point(c, c, inner, a0)
        path = (
            f"M{_f(x0)} {_f(y0)}A{_f(outer)} {_f(outer)} 0 0 1 {_f(x1)} {_f(y1)}"
            f"L{_f(x2)} {_f(y2)}A{_f(inner)} {_f(inner)} 0 0 0 {_f(x3)} {_f(y3)}Z"
        )
        state = states.get(sid, SliceState())
        classes = ["slice", f"sort-{kind}"]
        status = ""
        if state.eaten_by is not None:
            classes.append("eaten")
            status = _("eaten by %(who)s") % {"who": _mark(seat_marks, state.eaten_by)}
        elif state.owner is not None:
            classes.append("kept")
            status = _("kept by %(who)s") % {"who": _mark(seat_marks, state.owner)}
        if state.moved:
            classes.append("moved")
            status += " — " + _("just changed hands")
        title = describe(sid) + (f" — {status}" if status else "")
        portion = "" if portion_of is None or sid not in portion_of else f' data-portion="{portion_of[sid]}"'
        mid = _angle(position + 0.5)
        lx, ly = _point(c, c, (outer + inner) / 2 + 4, mid)
        parts.append(
            f'<g class="{" ".join(classes)}" data-slice="{sid}" data-position="{position}"{portion} '
            f'role="img" aria-label="{escape(title)}">'
            f"<title>{escape(title)}</title>"
            f'<path d="{path}" fill="url(#pat-{kind})"/>'
            f'<text x="{_f(lx)}" y="{_f(ly)}" class="letter" dy=".35em">{escape(letter(piece.kind))}</text>'
        )
        for olive in range(piece.olives):
            spread = (olive - (piece.olives - 1) / 2) * 0.16
            ox, oy = _point(c, c, outer - 7, mid + spread)
            parts.append(f'<circle cx="{_f(ox)}" cy="{_f(oy)}" r="2.6" class="olive"/>')
        if piece.finisher:
            fx, fy = _point(c, c, inner + 9, mid)
            parts.append(f'<circle cx="{_f(fx)}" cy="{_f(fy)}" r="5.5" class="medallion"/>')
        mx, my = _point(c, c, outer + 7, mid)
        mark = _mark(seat_marks, state.owner if state.owner is not None else state.eaten_by)
        parts.append(f'<text x="{_f(mx)}" y="{_f(my)}" dy=".35em" class="owner">{escape(mark)}</text>')
        parts.append(f'<path class="strike" d="M{_f(x0)} {_f(y0)}L{_f(x2)} {_f(y2)}"/>')
        parts.append("</g>")
    if portion_of:
        # Each portion's number near the centre, at the middle of its slices.
        position_of = {sid: position for position, sid in enumerate(slices)}
        members: dict[int, list[int]] = {}
        for sid, index in portion_of.items():
            members.setdefault(index, []).append(sid)
        for index, sids in sorted(members.items()):
            positions = {position_of[s] for s in sids}
            # A portion is a run of neighbours, which may wrap past position 12: it starts where
            # the position before is not in it.
            start = next(p for p in sorted(positions) if (p - 1) % RING not in positions)
            px, py = _point(c, c, inner - 15, _angle(start + len(sids) / 2))
            parts.append(
                f'<circle cx="{_f(px)}" cy="{_f(py)}" r="10" class="portion-badge"/>'
                f'<text x="{_f(px)}" y="{_f(py)}" dy=".35em" class="portion-number">{index + 1}</text>'
            )
    for gap in range(RING):
        a = _angle(gap)
        gx0, gy0 = _point(c, c, inner - 6, a)
        gx1, gy1 = _point(c, c, outer + 6, a)
        shown = " shown" if gap in cut_set else ""
        parts.append(
            f'<line class="cut{shown}" data-gap="{gap}" x1="{_f(gx0)}" y1="{_f(gy0)}" x2="{_f(gx1)}" y2="{_f(gy1)}"/>'
        )
        if gap_buttons:
            bx, by = _point(c, c, outer + 2, a)
            # Gaps are numbered from 1, as seats and portions are: gap 1 is at the top.
            gap_title = _("Cut at gap %(n)d, between %(left)s and %(right)s") % {
                "n": gap + 1,
                "left": describe(slices[gap - 1]),
                "right": describe(slices[gap]),
            }
            # An invisible ring around the dot makes a 50 px touch target without covering the slices.
            parts.append(
                f'<circle class="gap-hit" data-gap="{gap}" cx="{_f(bx)}" cy="{_f(by)}" r="25" aria-hidden="true"/>'
                f'<g class="gap-button" data-gap="{gap}" role="button" aria-pressed="false" '
                f'aria-label="{escape(gap_title)}"><title>{escape(gap_title)}</title>'
                f'<circle cx="{_f(bx)}" cy="{_f(by)}" r="11"/>'
                f'<text x="{_f(bx)}" y="{_f(by)}" dy=".35em" class="gap-number" aria-hidden="true">{gap + 1}</text></g>'
            )
    parts.append("</svg>")
    return mark_safe("".join(parts))


def _mark(marks: Sequence[str], seat: int | None) -> str:
    if seat is None:
        return ""
    return marks[seat] if seat < len(marks) else str(seat)


def chips(ids: Iterable[int], css: str = "", *, sample: bool = False) -> SafeString:
    """Slices as small labelled chips (pattern, letter and a title), for players' kept and eaten slices.

    A `sample` chip stands for a kind of slice (the legend, the counts of what is still to come): it
    names no slice of the deck, so that no page ever carries the id of a slice still to come.
    """
    out = []
    for sid in ids:
        piece = DECK[sid]
        kind = KIND_NAMES[piece.kind]
        finisher = " finisher" if piece.finisher else ""
        mark = "" if sample else f' data-slice="{sid}"'
        out.append(
            f'<span class="chip sort-{kind}{finisher} {css}" title="{escape(describe(sid))}"{mark}>'
            f'<span aria-hidden="true">{escape(letter(piece.kind))}</span>'
            f'<span class="visually-hidden">{escape(describe(sid))}</span></span>'
        )
    return mark_safe("".join(out))
