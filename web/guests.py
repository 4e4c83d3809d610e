"""The guests of a friendly table as typed in the lobby: names checked in the visitor's language.

The play layer refuses a bad line-up too (in the API's English); the lobby says it first, beside the
field, in the page's language, and when a name is unknown it proposes the closest one.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.postgres.search import TrigramSimilarity
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from arena.models import Player
from games.registry import GameSpec

# How alike (pg_trgm similarity, 0 to 1) a name must be to be proposed for a mistyped one.
SUGGEST_SIMILARITY = 0.2


@dataclass(frozen=True)
class Guests:
    ids: list[int]
    error: str = ""


def split(raw: str) -> list[str]:
    return [name.strip() for name in raw.split(",") if name.strip()]


def closest(name: str) -> str | None:
    """The player name most like `name` (trigram similarity), if one is alike enough."""
    found = (
        Player.objects.annotate(likeness=TrigramSimilarity("name", name))
        .filter(likeness__gte=SUGGEST_SIMILARITY)
        .order_by("-likeness", "id")
        .values_list("name", flat=True)
        .first()
    )
    return str(found) if found is not None else None


def check(spec: GameSpec, host: Player, names: list[str]) -> Guests:
    """The guests' player ids, or the first problem with the list in the visitor's words."""
    low, high = spec.min_players - 1, spec.max_players - 1
    if not low <= len(names) <= high:
        return Guests(
            [],
            ngettext(
                "A table seats %(min)d to %(max)d players: invite %(low)d to %(high)d guests (you named %(n)d).",
                "A table seats %(min)d to %(max)d players: invite %(low)d to %(high)d guests (you named %(n)d).",
                len(names),
            )
            % {"min": spec.min_players, "max": spec.max_players, "low": low, "high": high, "n": len(names)},
        )
    seen: set[str] = set()
    for name in names:
        if name in seen:
            return Guests([], _("%(name)s is invited twice.") % {"name": name})
        seen.add(name)
    if host.name in seen:
        return Guests([], _("You sit at your own table already: invite others."))
    found = dict(Player.objects.filter(name__in=names).values_list("name", "id"))
    for name in names:
        if name not in found:
            guess = closest(name[:64])
            if guess is not None and guess != host.name:
                suggestion = _("No player named %(name)s. Did you mean %(guess)s?") % {"name": name, "guess": guess}
                return Guests([], suggestion)
            return Guests([], _("No player named %(name)s.") % {"name": name})
    return Guests([found[name] for name in names])
