"""The play table as a page: the current pizza, the choices of the seat to act, and a form's answer
turned into an action for `play.engine.submit_action`."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from arena.models import MatchSeat
from games.part_du_chef import DECK, Cut, Take
from games.part_du_chef.state import portions_of
from play.engine import TableState, turn_seconds
from play.models import LiveGame
from play.snapshot import snapshot
from web import gamelog, notices, pizza, sentences


def seat_marks(table: TableState) -> list[str]:
    # People count seats from 1 to N, as the rules do; the API, the protocol and the logs count from 0.
    return [str(seat + 1) for seat in range(len(table.players))]


def context(table: TableState) -> dict[str, Any]:
    """Everything the play table's templates show to this viewer: the pizza, the choices of the seat to
    act, the seats, the log and the status line, the earlier pizzas and the clock."""
    view = snapshot(table)
    obs = view["observation"]
    state = table.state
    marks = seat_marks(table)
    ring_ids = [s["id"] for s in obs["ring"]]
    legal = view["legal"]
    players = _seats(table, view)
    who = sentences.Seats([player.name for player in table.players], table.seat)
    log = gamelog.entries(state, who, house_moves(table.live))
    # A seat that has left is played by the house: its person is told who plays, not "your turn".
    left = table.seat is not None and view["players"][table.seat]["forfeited"]
    finished = view["status"] == "finished"
    to_act = view["to_act"]
    return {
        "finished": finished,
        "standings": sorted(players, key=lambda p: (p["rank"] or len(players) + 1, p["seat"])) if finished else [],
        "place_line": _place_line(players, table.seat) if finished else "",
        "left_game": left and not finished,
        "again": {
            "guests": ", ".join(p["player"].name for p in players if not p["me"]),
            "marianne": bool(table.live.match.options.get("marianne")),
            "size": len(players),
        },
        "status_line": _status_line(table, view, sentences.Seats(who.names) if left else who),
        "log": log[::-1],
        "latest": log[-1].text if log else "",
        "view": view,
        "pizza_number": obs["pizza"] + 1,
        "ring": _current_ring(table, view, ring_ids, marks) if ring_ids else "",
        "legal": legal,
        "gaps": _gaps(ring_ids),
        "cut_points": legal["cut"]["points"] if legal and legal["cut"] else 0,
        "portions": _portion_choices(table, legal),
        "taken": [
            {"number": p["index"] + 1, "who": table.players[p["taken_by"]].name, "chips": pizza.chips(p["slices"])}
            for p in obs["portions"]
            if p["taken_by"] is not None
        ],
        "marianne": _marianne_choices(table, legal),
        "players": players,
        "to_act_name": table.players[to_act].name if to_act is not None else "",
        "unseen": _still_to_come(state, obs["pizza"]),
        "earlier": _earlier_pizzas(state, obs["pizza"], marks, who),
        "clock": notices.clock_label(int(turn_seconds(table.live)), _bank_left(table)),
    }


def _current_ring(table: TableState, view: dict[str, Any], ring_ids: list[int], marks: list[str]) -> str:
    """The pizza being shared out: who keeps and who ate each slice, its cut, its gaps as buttons to cut."""
    obs, state, legal = view["observation"], table.state, view["legal"]
    states = {sid: pizza.SliceState(owner=state.owner[sid]) for sid in ring_ids if state.owner[sid] >= 0}
    for seat, eaten in enumerate(state.eaten):
        for sid in eaten:
            if sid in ring_ids:
                states[sid] = pizza.SliceState(eaten_by=seat)
    return pizza.ring(
        ring_ids,
        label=_("Pizza %(n)d of 5") % {"n": obs["pizza"] + 1},
        states=states,
        cuts=obs["cuts"] or (),
        size=380,
        gap_buttons=bool(legal and legal["phase"] == "cut"),
        portion_of={sid: p["index"] for p in obs["portions"] for sid in p["slices"]},
        seat_marks=marks,
        pizza=obs["pizza"],
    )


def _gaps(ring_ids: list[int]) -> list[dict[str, Any]]:
    """The gaps one may cut at, numbered from 1 as on the pizza, each named by the slices either side."""
    return [
        {
            "number": gap,
            "label": gap + 1,
            "between": _("between %(left)s and %(right)s")
            % {"left": sentences.slice_name(ring_ids[gap - 1]), "right": sentences.slice_name(ring_ids[gap])},
        }
        for gap in range(len(ring_ids))
    ]


def _portion_choices(table: TableState, legal: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The portions the seat to act may take, each with what may be eaten and what each finisher may steal."""
    if not legal or legal["phase"] != "take":
        return []
    return [
        {
            "index": option["index"],
            "number": option["index"] + 1,
            "chips": pizza.chips(option["slices"]),
            "edible": [{"id": s, "label": pizza.describe(s), "chip": pizza.chips([s])} for s in option["edible"]],
            "finishers": [
                {
                    "slice": f["slice"],
                    "label": pizza.describe(f["slice"]),
                    "options": [
                        {
                            "value": f"{o['from']}:{o['slice']}",
                            "label": _("%(slice)s from %(who)s")
                            % {"slice": pizza.describe(o["slice"]), "who": table.players[o["from"]].name},
                        }
                        for o in f["steal_options"]
                    ],
                }
                for f in option["finishers"]
            ],
        }
        for option in legal["portions"]
    ]


def _marianne_choices(table: TableState, legal: dict[str, Any] | None) -> dict[str, Any] | None:
    """La Marianne's swap for the seat to act, or None. The card is offered only when there is something
    to swap: two slices to give, two to take."""
    if not legal or not legal["marianne"]["can_use"] or len(legal["marianne"]["take"]) < 2:
        return None
    taking = legal["phase"] == "take"
    largest = max((len(o["slices"]) for o in legal["portions"]), default=0) if taking else 0
    if len(legal["marianne"]["give"]) + largest < 2:
        return None
    return {
        "give": [{"id": s, "label": pizza.describe(s), "portion": None} for s in legal["marianne"]["give"]]
        # The swap comes after the take: the slices kept from the portion taken can be given too.
        + [
            {
                "id": s,
                "label": _("%(slice)s (portion %(n)d)") % {"slice": pizza.describe(s), "n": option["index"] + 1},
                "portion": option["index"],
            }
            for option in (legal["portions"] if taking else [])
            for s in option["slices"]
        ],
        "take": [
            {
                "id": s,
                "label": _("%(slice)s of %(who)s")
                % {"slice": pizza.describe(s), "who": table.players[table.state.owner[s]].name},
            }
            for s in legal["marianne"]["take"]
        ],
    }


def _seats(table: TableState, view: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per seat: its player, what it keeps and ate, its score and clock, and once the game is
    over its placing and ratings."""
    obs, state, marks = view["observation"], table.state, seat_marks(table)
    results = {}
    if view["status"] == "finished":
        results = {seat.seat: seat for seat in MatchSeat.objects.filter(match_id=table.live.match_id)}
    return [
        {
            "seat": seat,
            "mark": marks[seat],
            "player": player,
            "me": seat == table.seat,
            "to_act": seat == view["to_act"],
            "kept": pizza.chips(sorted(state.kept[seat])),
            "eaten": pizza.chips(sorted(state.eaten[seat]), "eaten-chip"),
            "score": obs["scores"][seat],
            "timeouts": view["players"][seat]["timeouts"],
            "forfeited": view["players"][seat]["forfeited"],
            "marianne": obs["marianne"]["holder"] == seat and obs["marianne"]["in_play"],
            "rank": results[seat].rank if seat in results else None,
            "rating_before": results[seat].rating_before if seat in results else None,
            "rating_after": results[seat].rating_after if seat in results else None,
        }
        for seat, player in enumerate(table.players)
    ]


def _place_line(players: list[dict[str, Any]], viewer: int | None) -> str:
    """The viewer's place once the game is over ("" for a watcher, or a seat without a placing)."""
    mine = players[viewer] if viewer is not None else None
    if not mine or not mine["rank"]:
        return ""
    return sentences.place(mine["rank"], len(players), left=mine["forfeited"])


def _status_line(table: TableState, view: dict[str, Any], who: sentences.Seats) -> str:
    state = table.state
    return sentences.status(
        None if view["status"] == "finished" else state.phase,
        view["to_act"],
        view["observation"]["pizza"],
        who,
        portions_left=len(state.available_portions()) if state.phase == "take" else 0,
        cut_points=state.players,
    )


def house_moves(live: LiveGame) -> dict[int, str]:
    """The decisions (by index in the record) the house took for a seat, and why, as the log says it:
    "clock" when a person's time ran out, "left" once the seat was out (a bot's forfeit included)."""
    said = {LiveGame.DecidedBy.CLOCK: "clock", LiveGame.DecidedBy.LEFT: "left", LiveGame.DecidedBy.FORFEIT: "left"}
    return {index: said[cause] for index, cause in enumerate(live.decided_by) if cause in said}


def _bank_left(table: TableState) -> int:
    """Seconds left in the viewer's bank (a person at a friendly table with a bank), else 0."""
    if table.seat is None or not table.players[table.seat].is_person:
        return 0
    return int(table.live.bank_ms[table.seat] / 1000)


def _earlier_pizzas(state: Any, current: int, marks: list[str], who: sentences.Seats) -> list[dict[str, Any]]:
    """The pizzas already shared out in this game (public: everyone saw them), each with its cut, who
    took which portion, and where its slices are now (kept by, eaten by)."""
    cuts: dict[int, tuple[int, ...]] = {}
    takers: dict[int, list[tuple[int, int]]] = {}
    for seat, number, action in state.history:
        if isinstance(action, Cut):
            cuts[number] = tuple(action.cuts)
        elif isinstance(action, Take):
            takers.setdefault(number, []).append((action.portion, seat))
    out = []
    for number in range(min(current, len(state.pizzas))):
        ring_ids = list(state.pizzas[number])
        slice_states = {}
        for sid in ring_ids:
            eaten_by = next((seat for seat, eaten in enumerate(state.eaten) if sid in eaten), None)
            if eaten_by is not None:
                slice_states[sid] = pizza.SliceState(eaten_by=eaten_by)
            elif state.owner[sid] >= 0:
                slice_states[sid] = pizza.SliceState(owner=state.owner[sid])
        ring_cuts = cuts.get(number, ())
        parts = portions_of(tuple(ring_ids), ring_cuts) if ring_cuts else ()
        out.append(
            {
                "number": number + 1,
                "ring": pizza.ring(
                    ring_ids,
                    label=_("Pizza %(n)d of 5") % {"n": number + 1},
                    states=slice_states,
                    cuts=ring_cuts,
                    size=220,
                    seat_marks=marks,
                    pizza=number,
                ),
                "taken": [
                    {"number": portion + 1, "who": who(seat), "chips": pizza.chips(parts[portion])}
                    for portion, seat in sorted(takers.get(number, []))
                    if portion < len(parts)
                ],
            }
        )
    return out


class FormProblem(Exception):
    """A form that does not say what to do (a play form that describes no decision, a lobby form whose
    numbers do not parse), told in the player's words."""

    def __init__(self, refusal: sentences.Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal


def _still_to_come(state: Any, current: int) -> list[dict[str, Any]]:
    """The slices of the pizzas after the current one, counted per kind of slice (sort, olives and
    finisher alike): public, since the deck is known and every pizza so far has been seen."""
    seen = {sid for ring in state.pizzas[: current + 1] for sid in ring}
    groups: dict[tuple[int, int, bool], list[int]] = {}
    for piece in DECK:
        if piece.id not in seen:
            groups.setdefault((piece.kind, piece.olives, piece.finisher), []).append(piece.id)
    return [
        {"chip": pizza.chips([ids[0]], sample=True), "name": sentences.slice_name(ids[0]), "count": len(ids)}
        for _, ids in sorted(groups.items())
    ]


def action_from_form(data: QueryDict) -> dict[str, Any]:
    """The action a play form describes, in the JSON form of records (the rules judge it)."""

    def ints(name: str) -> list[int]:
        out = []
        for raw in data.getlist(name):
            try:
                out.append(int(raw))
            except ValueError:
                raise FormProblem(sentences.Refusal(_("The form could not be read: reload the table."))) from None
        return out

    marianne = None
    if data.get("marianne") == "on":
        marianne = {"give": ints("give"), "take": ints("take")}
    if data.get("phase") == "cut":
        return {"type": "cut", "cuts": sorted(ints("gap")), "marianne": marianne}
    portion_raw = data.get("portion")
    if portion_raw is None or not portion_raw.isdigit():
        raise FormProblem(sentences.Refusal(_("Choose a portion."), "portion"))
    portion = int(portion_raw)
    steals = []
    for key in data:
        if key.startswith(f"steal-{portion}-") and data[key]:
            try:
                finisher = int(key.rsplit("-", 1)[1])
                victim, sid = (int(part) for part in str(data[key]).split(":"))
            except ValueError:
                raise FormProblem(sentences.Refusal(_("Choose a steal from the list."), "steal")) from None
            steals.append({"finisher": finisher, "from": victim, "slice": sid})
    return {"type": "take", "portion": portion, "eat": ints(f"eat-{portion}"), "steals": steals, "marianne": marianne}
