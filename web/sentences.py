"""Every sentence the pages say about a game, in the page's language (English, French, Norwegian):
the game log of the play table, its status line and pizza summaries, the replay's captions, and the
rules' refusals turned into words for players (slice names, seats numbered from 1 as on the table).

The play table and the replay both speak through this module, so a move reads the same in both.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.part_du_chef import DECK, KIND_NAMES, Cut, Take
from web.pizza import sort_name


@dataclass(frozen=True)
class Seats:
    """How players are named to one viewer: by name, and "(you)" after the viewer's own."""

    names: Sequence[str]
    viewer: int | None = None

    def __call__(self, seat: int) -> str:
        if not 0 <= seat < len(self.names):
            return _("seat %(n)d") % {"n": seat + 1}
        if seat == self.viewer:
            return _("%(name)s (you)") % {"name": self.names[seat]}
        return str(self.names[seat])


def slice_name(sid: int) -> str:
    """A slice as a player says it: "Margherita (3 olives)", "Truffe (1 olive, double finisher)"."""
    piece = DECK[sid]
    extras = []
    if piece.olives:
        extras.append(ngettext("%(n)d olive", "%(n)d olives", piece.olives) % {"n": piece.olives})
    if piece.finisher:
        extras.append(_("double finisher"))
    name = sort_name(piece.kind)
    return f"{name} ({', '.join(extras)})" if extras else name


def slice_list(sids: Sequence[int]) -> str:
    """Slices in order, alike ones counted once: "Margherita (2 olives) ×2, Chili"."""
    counts: dict[str, int] = {}
    for sid in sids:
        name = slice_name(sid)
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(name if n == 1 else f"{name} ×{n}" for name, n in counts.items())


def pizza_number(pizza: int) -> int:
    return pizza + 1


def move(
    action: Cut | Take,
    seat: int,
    pizza: int,
    who: Seats,
    portion: Sequence[int] = (),
    house: str | None = None,
    owners: Sequence[int] | None = None,
) -> str:
    """One decision as a sentence: a cut, or a take with what was eaten, kept and stolen, and a swap.

    `house` says why the house played it: "clock" (the person's time ran out) or "left". `owners`
    are the slices' owners before the decision (seat, or -1): with them a La Marianne swap says
    whose slices were taken and who received each slice given.
    """
    name = who(seat)
    if isinstance(action, Cut):
        text = ngettext(
            "%(who)s cut pizza %(pizza)d into %(n)d portion at gap %(gaps)s.",
            "%(who)s cut pizza %(pizza)d into %(n)d portions at gaps %(gaps)s.",
            len(action.cuts),
        ) % {
            "who": name,
            "pizza": pizza_number(pizza),
            "n": len(action.cuts),
            "gaps": ", ".join(str(c + 1) for c in action.cuts),  # numbered from 1, as on the pizza
        }
    else:
        kept = [s for s in portion if s not in action.eat]
        parts = [_("%(who)s took portion %(portion)d") % {"who": name, "portion": action.portion + 1}]
        if action.eat:
            parts.append(_("ate %(slices)s") % {"slices": slice_list(action.eat)})
        if kept:
            parts.append(_("kept %(slices)s") % {"slices": slice_list(kept)})
        text = ", ".join(parts) + "."
        for steal in action.steals:
            if seat == who.viewer:
                text += " " + _("Your double finisher stole %(slice)s from %(victim)s.") % {
                    "slice": slice_name(steal.slice),
                    "victim": who(steal.victim),
                }
            elif steal.victim == who.viewer:
                text += " " + _("Their double finisher stole your %(slice)s.") % {"slice": slice_name(steal.slice)}
            else:
                text += " " + _("Their double finisher stole %(slice)s from %(victim)s.") % {
                    "slice": slice_name(steal.slice),
                    "victim": who(steal.victim),
                }
    if action.marianne is not None:
        text += " " + _marianne(action.marianne.give, action.marianne.take, name, who, owners)
    if house == "clock":
        text += " " + _("(The clock ran out: the house played this for %(who)s.)") % {"who": name}
    elif house == "left":
        text += " " + _("(%(who)s has left: the house plays the seat.)") % {"who": name}
    return text


def _swapped(sid: int) -> str:
    """A slice given or taken with La Marianne; the burnt slice says what it costs."""
    if KIND_NAMES[DECK[sid].kind] == "burnt":
        return _("%(slice)s (−3)") % {"slice": slice_name(sid)}
    return slice_name(sid)


def _marianne(give: Sequence[int], take: Sequence[int], name: str, who: Seats, owners: Sequence[int] | None) -> str:
    """La Marianne's swap: `give[i]` goes to the owner of `take[i]`, who loses `take[i]`."""
    if owners is None:
        return _("La Marianne: %(who)s gave %(give)s and took %(take)s.") % {
            "who": name,
            "give": ", ".join(_swapped(s) for s in give),
            "take": ", ".join(_swapped(s) for s in take),
        }
    pairs = [
        _("%(victim)s received %(give)s and lost %(take)s")
        % {
            "victim": who(owners[taken]),
            "give": _swapped(given),
            "take": _swapped(taken),
        }
        for given, taken in zip(give, take, strict=True)
    ]
    return _("La Marianne: %(who)s swapped slices; %(pairs)s.") % {"who": name, "pairs": "; ".join(pairs)}


def deal() -> str:
    return _("The deal: five pizzas, each seen only when its turn comes.")


def pizza_over(pizza: int, who: Seats, totals: Sequence[int]) -> str:
    """The summary when a pizza's last portion is taken."""
    standing = ", ".join(
        _("%(who)s %(score)d") % {"who": who(seat), "score": total}
        for seat, total in sorted(enumerate(totals), key=lambda pair: -pair[1])
    )
    if pizza_number(pizza) >= 5:
        return _("Pizza %(pizza)d is eaten: the game is over. Final scores: %(standing)s.") % {
            "pizza": pizza_number(pizza),
            "standing": standing,
        }
    return _("Pizza %(pizza)d is shared out. Scores so far: %(standing)s.") % {
        "pizza": pizza_number(pizza),
        "standing": standing,
    }


def place(rank: int, players: int, *, left: bool = False) -> str:
    """Where the viewer finished; one who left is ranked below everyone who stayed."""
    if left:
        return _("You left the game: you forfeit and are ranked number %(rank)d of %(n)d.") % {
            "rank": rank,
            "n": players,
        }
    if rank == 1:
        return _("You won: first of %(n)d.") % {"n": players}
    return _("You finished number %(rank)d of %(n)d.") % {"rank": rank, "n": players}


def status(
    phase: str | None, to_act: int | None, pizza: int, who: Seats, portions_left: int = 0, cut_points: int = 0
) -> str:
    """Who must do what now."""
    if to_act is None or phase is None:
        return _("The game is over.")
    if to_act == who.viewer:
        if phase == "cut":
            return ngettext(
                "Your turn: cut pizza %(pizza)d into %(n)d portion.",
                "Your turn: cut pizza %(pizza)d into %(n)d portions.",
                cut_points,
            ) % {"pizza": pizza_number(pizza), "n": cut_points}
        return ngettext(
            "Your turn: take the last portion.",
            "Your turn: take one of the %(n)d portions left.",
            portions_left,
        ) % {"n": portions_left}
    if phase == "cut":
        return _("Waiting for %(who)s to cut pizza %(pizza)d.") % {
            "who": who(to_act),
            "pizza": pizza_number(pizza),
        }
    return ngettext(
        "Waiting for %(who)s to take a portion (%(n)d left).",
        "Waiting for %(who)s to take a portion (%(n)d left).",
        portions_left,
    ) % {"who": who(to_act), "n": portions_left}


# -- the rules' refusals, for players ---------------------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    """A refused decision in the player's words, and the control it concerns (cut, portion, eat,
    steal, marianne, or None for the whole form)."""

    message: str
    field: str | None = None


_Explain = Callable[[re.Match[str], Seats], Refusal]


def _slice(raw: str) -> str:
    sid = int(raw)
    return slice_name(sid) if 0 <= sid < len(DECK) else _("slice %(n)d") % {"n": sid}


def _seat(raw: str, who: Seats) -> str:
    return who(int(raw))


_RULES: list[tuple[str, _Explain]] = [
    (
        r"a cut for (\d+) players has (\d+) cut points, not (\d+)",
        lambda m, who: Refusal(
            ngettext(
                "Choose %(need)d gap to cut: you chose %(got)d.",
                "Choose %(need)d gaps to cut: you chose %(got)d.",
                int(m[2]),
            )
            % {"need": int(m[2]), "got": int(m[3])},
            "cut",
        ),
    ),
    (r"cut points must be distinct", lambda m, who: Refusal(_("Choose each gap only once."), "cut")),
    (r"cut point .* is not a position", lambda m, who: Refusal(_("There is no such gap on the pizza."), "cut")),
    (
        r"La Marianne swaps exactly two slices",
        lambda m, who: Refusal(
            _("With La Marianne, give exactly two of your slices and take exactly two."), "marianne"
        ),
    ),
    (
        r"La Marianne swaps two distinct slices",
        lambda m, who: Refusal(
            _("With La Marianne, give two different slices and take two different ones."), "marianne"
        ),
    ),
    (
        r"La Marianne: slice (\d+) is not among the slices seat (\d+) keeps",
        lambda m, who: Refusal(
            _("La Marianne: you can give only slices you keep, and you do not keep %(slice)s.")
            % {"slice": _slice(m[1])},
            "marianne",
        ),
    ),
    (
        r"La Marianne: slice (\d+) is not kept by an opponent",
        lambda m, who: Refusal(
            _("La Marianne: you can take only slices an opponent keeps, and %(slice)s is not one.")
            % {"slice": _slice(m[1])},
            "marianne",
        ),
    ),
    (r"La Marianne names slice", lambda m, who: Refusal(_("La Marianne: choose slices on the table."), "marianne")),
    (
        r"La Marianne is not in this game",
        lambda m, who: Refusal(_("This game is played without La Marianne."), "marianne"),
    ),
    (r"La Marianne has already been used", lambda m, who: Refusal(_("La Marianne has already been used."), "marianne")),
    (
        r"seat (\d+) does not hold La Marianne",
        lambda m, who: Refusal(_("You do not hold La Marianne now."), "marianne"),
    ),
    (
        r"slice (\d+) is a chili",
        lambda m, who: Refusal(_("%(slice)s is a chili: a chili cannot be eaten.") % {"slice": _slice(m[1])}, "eat"),
    ),
    (
        r"slice (\d+) is burnt",
        lambda m, who: Refusal(_("%(slice)s is burnt: it cannot be eaten.") % {"slice": _slice(m[1])}, "eat"),
    ),
    (r"a slice is listed twice in eat", lambda m, who: Refusal(_("Eat each slice only once."), "eat")),
    (
        r"slice (\d+) is not in portion (\d+)",
        lambda m, who: Refusal(
            _("%(slice)s is not in portion %(portion)d: eat only from the portion you take.")
            % {"slice": _slice(m[1]), "portion": int(m[2]) + 1},
            "eat",
        ),
    ),
    (
        r"portion (\d+) is already taken by seat (\d+)",
        lambda m, who: Refusal(
            _("Portion %(portion)d is already taken by %(who)s.") % {"portion": int(m[1]) + 1, "who": _seat(m[2], who)},
            "portion",
        ),
    ),
    (r"there is no portion", lambda m, who: Refusal(_("Choose one of the portions left."), "portion")),
    (
        r"finisher (\d+) is eaten: only a kept finisher steals",
        lambda m, who: Refusal(
            _("%(slice)s steals only if you keep it, and you are eating it.") % {"slice": _slice(m[1])}, "steal"
        ),
    ),
    (
        r"finisher (\d+) steals only once",
        lambda m, who: Refusal(_("%(slice)s steals only once.") % {"slice": _slice(m[1])}, "steal"),
    ),
    (
        r"slice (\d+) is not a double finisher in portion (\d+)",
        lambda m, who: Refusal(_("Only a double finisher in the portion you take can steal."), "steal"),
    ),
    (
        r"seat (\d+) does not keep slice (\d+)",
        lambda m, who: Refusal(
            _("%(who)s does not keep %(slice)s.") % {"who": _seat(m[1], who), "slice": _slice(m[2])}, "steal"
        ),
    ),
    (
        r"finisher (\d+) steals \w+, and slice (\d+) is",
        lambda m, who: Refusal(
            _("%(finisher)s steals only a slice of its own sort, and %(slice)s is not.")
            % {"finisher": _slice(m[1]), "slice": _slice(m[2])},
            "steal",
        ),
    ),
    (
        r"a finisher steals from an opponent",
        lambda m, who: Refusal(_("A double finisher steals from an opponent, not from you."), "steal"),
    ),
    (r"there is no seat .* to steal from", lambda m, who: Refusal(_("Choose an opponent to steal from."), "steal")),
    (
        r"it is seat (\d+)'s turn",
        lambda m, who: Refusal(_("It is not your turn: %(who)s is to play.") % {"who": _seat(m[1], who)}),
    ),
    (r"must cut pizza", lambda m, who: Refusal(_("The pizza must be cut first."))),
    (r"is already cut", lambda m, who: Refusal(_("The pizza is already cut: take a portion."))),
    (
        r"has already been played",
        lambda m, who: Refusal(_("This decision has already been taken; the table has moved on.")),
    ),
    (r"has not come yet", lambda m, who: Refusal(_("This decision has not come yet; reload the table."))),
    (r"you have left this game", lambda m, who: Refusal(_("You have left this game; the house plays your seat."))),
    (r"the game is over", lambda m, who: Refusal(_("The game is over."))),
    (r"you have no seat", lambda m, who: Refusal(_("Sign in with a seat at this table to play."))),
]
_COMPILED = [(re.compile(pattern), explain) for pattern, explain in _RULES]


def refusal(message: str, who: Seats) -> Refusal:
    """The rules' (or the engine's) message about a refused decision, told to the player."""
    for pattern, explain in _COMPILED:
        found = pattern.search(message)
        if found is not None:
            return explain(found, who)
    return Refusal(_("This move is not allowed: %(reason)s") % {"reason": message})
