"""Template helpers of the web front."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from games.part_du_chef import DECK, KIND_NAMES
from web import pizza

register = template.Library()


@register.simple_tag
def pizza_defs() -> SafeString:
    return pizza.defs()


@register.simple_tag
def legend_items() -> list[dict[str, Any]]:
    first = {}
    for piece in DECK:
        first[piece.kind] = piece.id  # the last of each kind: a plain slice, not the finisher
    return [
        {"chip": pizza.chips([first[kind]], sample=True), "name": pizza.sort_name(kind)}
        for kind in range(len(KIND_NAMES))
    ]


LABELS = {
    "friendly": _("friendly"),
    "ranked": _("ranked"),
    "arena": _("arena"),
    "queued": _("queued"),
    "running": _("running"),
    "finished": _("finished"),
    "failed": _("failed"),
}


@register.filter
def kind_label(value: str) -> str:
    """A match's kind or status in the viewer's language."""
    return str(LABELS.get(value, value))


@register.filter
def index(items: Any, position: int) -> Any:
    try:
        return items[position]
    except (IndexError, TypeError, KeyError):
        return ""
