"""Template helpers of the web front."""

from __future__ import annotations

import re
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


# What a page's 404 says was not found, in the reader's language: the things Django's get_object_or_404
# names by their class ("No SubmittedBot matches the given query."; the API's words: config.errors).
MISSING = {
    "SubmittedBot": _("No bot with this id."),
    "BotVersion": _("No version of this bot with this number."),
    "BotSeat": _("No bot seat with this id."),
    "BotComparison": _("No bot comparison with this id."),
    "ComparisonDeal": _("No comparison deal with this id."),
    "Player": _("No player with this id."),
    "Match": _("No match with this id."),
    "MatchSeat": _("No seat with this number in this match."),
    "ArenaEntry": _("No arena entry with this id."),
    "Tournament": _("No tournament with this id."),
    "TournamentEntry": _("No entry with this id in this tournament."),
    "TournamentGame": _("No game with this id in this tournament."),
    "LiveGame": _("No table with this id."),
    "FriendlyTable": _("No table with this id."),
    "TableSeat": _("No seat with this number at this table."),
    "ChatMessage": _("No chat message with this id."),
    "ChatReport": _("No report with this id."),
    "Rating": _("No rating for this player in this game."),
    "RatingChange": _("No rating change with this id."),
    "RatingBucket": _("No rating range like this."),
    "IdempotencyKey": _("No request with this Idempotency-Key."),
    "User": _("No account with this id."),
    "Token": _("No token like this."),
}
_DJANGO_NOT_FOUND = re.compile(r"^No (\w+) matches the given query\.$")


@register.filter
def missing_thing(exception: object) -> str:
    """The 404's missing thing in words ("No bot with this id."), or "" when the 404 names none."""
    found = _DJANGO_NOT_FOUND.match(str(exception or ""))
    if not found:
        return ""
    return str(MISSING.get(found[1], _("Nothing was found with this id.")))
