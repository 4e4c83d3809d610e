"""Every sentence the pages say about a game, in the page's language (English, French, Norwegian):
the game log of the play table, its status line and pizza summaries, the replay's captions, and the
rules' refusals turned into words for players (slice names, seats numbered from 1 as on the table).

The play table and the replay both speak through this module, so a move reads the same in both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

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


class Coded(Protocol):
    """A refusal of the rules (games.part_du_chef.errors) or of the table (arena.errors): a stable code
    and its parameters beside the English message."""

    code: str
    params: dict[str, str | int]


Params = Mapping[str, str | int]
_Explain = Callable[[Params, Seats], Refusal]


def _slice(value: str | int) -> str:
    sid = int(value)
    return slice_name(sid) if 0 <= sid < len(DECK) else _("slice %(n)d") % {"n": sid}


def _seat(value: str | int, who: Seats) -> str:
    return who(int(value))


def _form_unread(p: Params, who: Seats) -> Refusal:
    return Refusal(_("The form could not be read: reload the table."))


def _cut_count(p: Params, who: Seats) -> Refusal:
    need, got = int(p["players"]), int(p["given"])
    message = ngettext(
        "Choose %(need)d gap to cut: you chose %(got)d.", "Choose %(need)d gaps to cut: you chose %(got)d.", need
    )
    return Refusal(message % {"need": need, "got": got}, "cut")


# Each code of the rules' and the table's refusals, in the player's words. Every code the rules can
# raise is here (tests/web/test_refusals_are_told_by_their_code.py): the English text is never read.
_BY_CODE: dict[str, _Explain] = {
    # Not an action at all: the form sent something it should not have.
    "action_not_object": _form_unread,
    "action_unknown_type": _form_unread,
    "field_not_integer": _form_unread,
    "field_not_integer_list": _form_unread,
    "steals_not_list": _form_unread,
    "steal_not_object": _form_unread,
    "marianne_not_object": _form_unread,
    "turn_not_integer": _form_unread,
    "marianne_not_two_for_two": lambda p, who: Refusal(
        _("With La Marianne, give exactly two of your slices and take exactly two."), "marianne"
    ),
    # The cut.
    "cut_count": _cut_count,
    "cut_points_unordered": lambda p, who: Refusal(_("Choose each gap only once."), "cut"),
    "cut_point_off_ring": lambda p, who: Refusal(_("There is no such gap on the pizza."), "cut"),
    # La Marianne.
    "marianne_same_slice": lambda p, who: Refusal(
        _("With La Marianne, give two different slices and take two different ones."), "marianne"
    ),
    "marianne_give_not_kept": lambda p, who: Refusal(
        _("La Marianne: you can give only slices you keep, and you do not keep %(slice)s.")
        % {"slice": _slice(p["slice"])},
        "marianne",
    ),
    "marianne_take_not_opponents": lambda p, who: Refusal(
        _("La Marianne: you can take only slices an opponent keeps, and %(slice)s is not one.")
        % {"slice": _slice(p["slice"])},
        "marianne",
    ),
    "marianne_no_such_slice": lambda p, who: Refusal(_("La Marianne: choose slices on the table."), "marianne"),
    "marianne_absent": lambda p, who: Refusal(_("This game is played without La Marianne."), "marianne"),
    "marianne_used": lambda p, who: Refusal(_("La Marianne has already been used."), "marianne"),
    "marianne_not_held": lambda p, who: Refusal(_("You do not hold La Marianne now."), "marianne"),
    # What is eaten.
    "eat_chili": lambda p, who: Refusal(
        _("%(slice)s is a chili: a chili cannot be eaten.") % {"slice": _slice(p["slice"])}, "eat"
    ),
    "eat_burnt": lambda p, who: Refusal(
        _("%(slice)s is burnt: it cannot be eaten.") % {"slice": _slice(p["slice"])}, "eat"
    ),
    "eat_twice": lambda p, who: Refusal(_("Eat each slice only once."), "eat"),
    "eat_outside_portion": lambda p, who: Refusal(
        _("%(slice)s is not in portion %(portion)d: eat only from the portion you take.")
        % {"slice": _slice(p["slice"]), "portion": int(p["portion"]) + 1},
        "eat",
    ),
    # The portion.
    "portion_taken": lambda p, who: Refusal(
        _("Portion %(portion)d is already taken by %(who)s.")
        % {"portion": int(p["portion"]) + 1, "who": _seat(p["taker"], who)},
        "portion",
    ),
    "no_such_portion": lambda p, who: Refusal(_("Choose one of the portions left."), "portion"),
    # The steals.
    "steal_finisher_eaten": lambda p, who: Refusal(
        _("%(slice)s steals only if you keep it, and you are eating it.") % {"slice": _slice(p["finisher"])}, "steal"
    ),
    "steal_twice": lambda p, who: Refusal(_("%(slice)s steals only once.") % {"slice": _slice(p["finisher"])}, "steal"),
    "steal_not_finisher": lambda p, who: Refusal(
        _("Only a double finisher in the portion you take can steal."), "steal"
    ),
    "steal_not_kept": lambda p, who: Refusal(
        _("%(who)s does not keep %(slice)s.") % {"who": _seat(p["victim"], who), "slice": _slice(p["slice"])}, "steal"
    ),
    "steal_other_sort": lambda p, who: Refusal(
        _("%(finisher)s steals only a slice of its own sort, and %(slice)s is not.")
        % {"finisher": _slice(p["finisher"]), "slice": _slice(p["slice"])},
        "steal",
    ),
    "steal_from_self": lambda p, who: Refusal(_("A double finisher steals from an opponent, not from you."), "steal"),
    "steal_no_such_seat": lambda p, who: Refusal(_("Choose an opponent to steal from."), "steal"),
    # Whose turn, and the table.
    "not_your_turn": lambda p, who: Refusal(
        _("It is not your turn: %(who)s is to play.") % {"who": _seat(p["actor"], who)}
    ),
    "cut_first": lambda p, who: Refusal(_("The pizza must be cut first.")),
    "already_cut": lambda p, who: Refusal(_("The pizza is already cut: take a portion.")),
    "turn_played": lambda p, who: Refusal(_("This decision has already been taken; the table has moved on.")),
    "turn_not_come": lambda p, who: Refusal(_("This decision has not come yet; reload the table.")),
    "seat_left": lambda p, who: Refusal(_("You have left this game; the house plays your seat.")),
    "game_over": lambda p, who: Refusal(_("The game is over.")),
    "not_seated": lambda p, who: Refusal(_("Sign in with a seat at this table to play.")),
}
TOLD_CODES = frozenset(_BY_CODE)


def refusal(refused: Coded, who: Seats) -> Refusal:
    """A refusal of the rules (or of the table) told to the player, by its code and parameters."""
    explain = _BY_CODE.get(refused.code)
    if explain is not None:
        return explain(refused.params, who)
    return Refusal(_("This move is not allowed: %(reason)s") % {"reason": str(refused)})
