"""Game records, format part-du-chef/1: one JSON object that replays a game exactly (see docs/record-format.md)."""

from __future__ import annotations

from typing import Any, Final

from .actions import action_from_json
from .deck import DECK, PIZZAS, RING, deal
from .errors import IllegalAction, InvalidAction, RecordError
from .recording import RECORD_FORMAT, record_of
from .state import MAX_PLAYERS, MIN_PLAYERS, State

__all__ = ["DERIVED_FIELDS", "RECORD_FORMAT", "complete", "discrepancies", "record_of", "replay"]

# The fields of a record that follow from the rest: the deal from the seed, the chili assignment, the
# scores and the ranks from the actions (a replay gives them back). A store may leave them out (`complete`).
DERIVED_FIELDS: Final = ("pizzas", "chili", "scores", "ranks")


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise RecordError(message)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _replay_actions(record: dict[str, Any], *, dealt_by_seed: bool = False) -> State:
    _require(record.get("format") == RECORD_FORMAT, f"format must be {RECORD_FORMAT!r}, not {record.get('format')!r}")
    seed = record.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError("seed must be an integer")
    players = record.get("players")
    _require(
        isinstance(players, list) and all(isinstance(p, str) for p in players),
        "players must be a list of names",
    )
    assert isinstance(players, list)
    _require(MIN_PLAYERS <= len(players) <= MAX_PLAYERS, f"a game has 2 to 5 players, the record names {len(players)}")
    options = record.get("options")
    _require(isinstance(options, dict), "options must be an object")
    assert isinstance(options, dict)
    marianne = options.get("marianne", False)
    _require(isinstance(marianne, bool), "options.marianne must be true or false")
    seats = options.get("marianne_seats", list(range(len(players))))
    _require(
        isinstance(seats, list) and all(_is_int(s) and 0 <= s < len(players) for s in seats),
        f"options.marianne_seats must list seats between 0 and {len(players) - 1}",
    )
    assert isinstance(seats, list)
    state = State.new(len(players), seed, marianne=marianne, marianne_seats=seats)

    pizzas = [] if dealt_by_seed else record.get("pizzas")
    _require(isinstance(pizzas, list) and (dealt_by_seed or len(pizzas) == PIZZAS), "pizzas must be a list of 5 rings")
    assert isinstance(pizzas, list)
    dealt = deal(seed) if pizzas else ()
    for p, ring in enumerate(pizzas):
        _require(isinstance(ring, list) and len(ring) == RING, f"pizza {p + 1} must list 13 slices")
        for position, (given, sid) in enumerate(zip(ring, dealt[p], strict=True)):
            expected = DECK[sid].to_json()
            if given != expected:
                raise RecordError(
                    f"pizza {p + 1}, position {position}: the record has {given!r} where the deal of seed "
                    f"{seed} has {expected!r}"
                )

    actions = record.get("actions")
    _require(isinstance(actions, list), "actions must be a list")
    assert isinstance(actions, list)
    for i, entry in enumerate(actions):
        where = f"action {i}"
        _require(isinstance(entry, dict), f"{where} must be an object")
        if state.is_over:
            raise RecordError(f"{where}: the game is already over")
        _require(
            entry.get("seat") == state.to_act,
            f"{where}: seat {entry.get('seat')!r} acts, but it is seat {state.to_act}'s turn",
        )
        _require(
            entry.get("pizza") == state.pizza,
            f"{where}: it says pizza {entry.get('pizza')!r}, the game is at pizza {state.pizza}",
        )
        try:
            state.apply(action_from_json(entry))
        except (InvalidAction, IllegalAction) as e:
            raise RecordError(f"{where} ({entry.get('type')} by seat {entry.get('seat')}): {e}") from None
    return state


def _check(record: object, allow_unfinished: bool) -> tuple[State | None, list[str]]:
    if not isinstance(record, dict):
        return None, ["a record must be a JSON object"]
    try:
        state = _replay_actions(record)
    except RecordError as e:
        return None, [str(e)]
    if not state.is_over:
        if allow_unfinished:
            return state, []
        return state, [
            f"the game is not finished: it stops at pizza {state.pizza + 1}, {state.phase} by seat {state.to_act}"
        ]
    problems = []
    scores, chilis = state.results()
    expected: dict[str, list[Any]] = {
        "chili": [c.to_json() for c in chilis],
        "scores": [s.to_json() for s in scores],
        "ranks": list(state.ranks()),
    }
    for key, value in expected.items():
        given = record.get(key)
        if given == value:
            continue
        if isinstance(given, list) and len(given) == len(value):
            for i, (g, v) in enumerate(zip(given, value, strict=True)):
                if g != v:
                    problems.append(f"{key}[{i}]: the record has {g!r}, the replay gives {v!r}")
        else:
            problems.append(f"{key}: the record has {given!r}, the replay gives {value!r}")
    return state, problems


def complete(core: dict[str, Any]) -> dict[str, Any]:
    """The whole record of which `core` is the rest once its DERIVED_FIELDS are left out: its actions
    replayed from its seed, and the derived fields written from that replay as `record_of` writes them
    (`chili`, `scores` and `ranks` null while the game is not over). Every other field is kept as is.
    RecordError if the actions do not replay."""
    state = _replay_actions(core, dealt_by_seed=True)
    record = dict(core)
    record["pizzas"] = [[DECK[s].to_json() for s in ring] for ring in state.pizzas]
    record["chili"] = record["scores"] = record["ranks"] = None
    if state.is_over:
        scores, chilis = state.results()
        record["chili"] = [c.to_json() for c in chilis]
        record["scores"] = [s.to_json() for s in scores]
        record["ranks"] = list(state.ranks())
    return record


def discrepancies(record: object, *, allow_unfinished: bool = False) -> list[str]:
    """Every way in which `record` disagrees with its own replay (empty when it verifies)."""
    return _check(record, allow_unfinished)[1]


def replay(record: object, *, allow_unfinished: bool = False) -> State:
    """Validate `record` and replay it; RecordError names the first problem found."""
    state, problems = _check(record, allow_unfinished)
    if problems or state is None:
        raise RecordError(problems[0] if len(problems) == 1 else f"{problems[0]} (and {len(problems) - 1} more)")
    return state
