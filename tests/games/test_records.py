from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from games.part_du_chef import RecordError, Take, action_from_json, play_game, replay
from games.part_du_chef.bots import get_bot
from games.part_du_chef.record import DERIVED_FIELDS, complete, discrepancies
from games.part_du_chef.recording import record_of
from games.registry import get_game


def a_record(players: int = 3, seed: int = 11, marianne: bool = True) -> dict[str, Any]:
    bots = [get_bot("random", seed * 10 + i) for i in range(players)]
    record = play_game(bots, seed, names=[f"p{i}" for i in range(players)], marianne=marianne)
    return json.loads(json.dumps(record))  # exactly what a file holds


def test_a_record_has_the_documented_fields_in_order() -> None:
    record = a_record()
    assert list(record) == ["format", "seed", "players", "options", "pizzas", "actions", "chili", "scores", "ranks"]
    assert record["format"] == "part-du-chef/1"
    assert record["options"] == {"marianne": True, "marianne_seats": [0, 1, 2]}
    assert [len(ring) for ring in record["pizzas"]] == [13] * 5
    assert record["pizzas"][0][0].keys() == {"id", "sort", "olives", "finisher"}
    assert len(record["actions"]) == 5 * 4
    first = record["actions"][0]
    assert list(first) == ["type", "seat", "pizza", "cuts", "marianne"]
    assert list(record["actions"][1]) == ["type", "seat", "pizza", "portion", "eat", "steals", "marianne"]


def test_replaying_a_record_gives_the_same_scores_and_ranks() -> None:
    for players in range(2, 6):
        record = a_record(players, seed=players)
        state = replay(record)
        assert [s.to_json() for s in state.scores()] == record["scores"]
        assert list(state.ranks()) == record["ranks"]
        assert state.to_record(record["players"]) == record


def test_extra_fields_are_kept_but_may_not_overwrite_the_record() -> None:
    bots = [get_bot("random", i) for i in range(2)]
    record = play_game(bots, 3, names=["a", "b"], extra={"bots": ["random", "random"], "version": "1.0"})
    assert record["version"] == "1.0"
    replay(record)
    with pytest.raises(ValueError, match="extra field 'scores' would overwrite a record field"):
        play_game(bots, 3, names=["a", "b"], extra={"scores": []})


def edited(path: list[Any], value: Any) -> dict[str, Any]:
    record = a_record()
    target: Any = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return record


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["format"], "part-du-chef/9", "format must be 'part-du-chef/1', not 'part-du-chef/9'"),
        (["seed"], "eleven", "seed must be an integer"),
        (["players"], ["solo"], "a game has 2 to 5 players, the record names 1"),
        (["options", "marianne"], "yes", "options.marianne must be true or false"),
        (["pizzas", 2, 5, "olives"], 9, "pizza 3, position 5: the record has"),
        (["actions", 0, "seat"], 2, "action 0: seat 2 acts, but it is seat 0's turn"),
        (["actions", 1, "portion"], 7, "action 1 (take by seat 1): there is no portion 7"),
        (["actions", 0, "cuts"], [0, 1], "action 0 (cut by seat 0): a cut for 3 players has 3 cut points, not 2"),
        (["actions", 0, "type"], "slice", "action 0 (slice by seat 0): unknown action type 'slice'"),
        (["scores", 1, "total"], 999, "scores[1]: the record has"),
        (["ranks"], [1, 1, 1], "ranks"),
    ],
)
def test_a_hand_edited_record_is_refused_with_the_problem_named(path: list[Any], value: Any, message: str) -> None:
    record = edited(path, value)
    with pytest.raises(RecordError) as error:
        replay(record)
    assert message in str(error.value)


def test_a_record_cut_short_is_unfinished() -> None:
    record = a_record()
    record["actions"] = record["actions"][:7]
    # Pizza 2 is cut by seat 1, who takes last.
    assert discrepancies(record) == ["the game is not finished: it stops at pizza 2, take by seat 1"]
    state = replay(record, allow_unfinished=True)
    assert state.turn == 7 and state.to_act == 1


def test_an_unfinished_game_records_null_results_and_replays_to_the_same_position() -> None:
    state = replay(a_record(), allow_unfinished=True)
    partial = replay(a_record() | {"actions": a_record()["actions"][:9]}, allow_unfinished=True)
    record = partial.to_record(["p0", "p1", "p2"])
    assert record["scores"] is None and record["chili"] is None and record["ranks"] is None
    again = replay(record, allow_unfinished=True)
    assert again.kept == partial.kept and again.to_act == partial.to_act
    assert state.is_over


def test_extra_actions_after_the_end_are_refused() -> None:
    record = a_record()
    record["actions"].append(dict(record["actions"][-1]))
    with pytest.raises(RecordError, match="action 20: the game is already over"):
        replay(record)


def test_every_discrepancy_in_the_results_is_reported() -> None:
    record = a_record()
    record["scores"][0]["total"] += 1
    record["scores"][2]["olives"] += 1
    problems = discrepancies(record)
    assert len(problems) == 2
    assert problems[0].startswith("scores[0]: the record has") and problems[1].startswith("scores[2]")


def test_non_objects_and_garbage_are_refused_cleanly() -> None:
    for garbage in (None, [], "text", 3):
        with pytest.raises(RecordError, match="a record must be a JSON object"):
            replay(garbage)
    record = a_record()
    record["actions"][3] = ["take", 1]
    with pytest.raises(RecordError, match="action 3 must be an object"):
        replay(record)
    record = a_record()
    record["actions"][1]["eat"] = "all"
    with pytest.raises(RecordError, match="eat must be a list of integers"):
        replay(record)


def test_the_record_is_unchanged_by_replaying_it() -> None:
    record = a_record()
    before = copy.deepcopy(record)
    replay(record)
    assert record == before


def test_actions_from_json_round_trip() -> None:
    for entry in a_record()["actions"]:
        action = action_from_json(entry)
        again = action.to_json()
        assert {k: v for k, v in entry.items() if k not in ("seat", "pizza")} == again
    assert action_from_json({"type": "take", "portion": 1}) == Take(1)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_record_without_its_derived_fields_is_completed_exactly_by_its_replay(players: int) -> None:
    for seed, marianne in ((players, True), (players + 40, False)):
        record = a_record(players, seed=seed, marianne=marianne)
        record["arena"] = {"placings": record["ranks"]}  # a field of the arena's, kept as it is
        core = {key: value for key, value in record.items() if key not in DERIVED_FIELDS}
        assert json.dumps(complete(core), sort_keys=True) == json.dumps(record, sort_keys=True)


def test_an_unfinished_record_is_completed_with_its_deal_and_no_scores() -> None:
    record = a_record(4, seed=8)
    core = {key: value for key, value in record.items() if key not in DERIVED_FIELDS}
    core["actions"] = core["actions"][:7]
    completed = complete(core)
    assert completed["pizzas"] == record["pizzas"]
    assert (completed["chili"], completed["scores"], completed["ranks"]) == (None, None, None)
    assert discrepancies(completed, allow_unfinished=True) == []


def test_completing_a_record_whose_actions_do_not_replay_fails() -> None:
    record = a_record(3, seed=5)
    core = {key: value for key, value in record.items() if key not in DERIVED_FIELDS}
    core["actions"] = core["actions"][1:]
    with pytest.raises(RecordError):
        complete(core)


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (5, 21)])
def test_a_record_written_without_its_derived_fields_is_the_whole_record_less_them(players: int, seed: int) -> None:
    state = get_game("part-du-chef").new_state(players, seed, {})
    bots = [get_bot("random", seed * 10 + i) for i in range(players)]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state.apply(bots[seat].act(state.observation(seat)))
    names = [f"p{i}" for i in range(players)]
    whole = state.to_record(names)
    core = record_of(state, names, derived=False)
    assert core == {key: value for key, value in whole.items() if key not in DERIVED_FIELDS}
    assert list(core) == [key for key in whole if key not in DERIVED_FIELDS]
    assert json.dumps(complete(json.loads(json.dumps(core))), sort_keys=True) == json.dumps(whole, sort_keys=True)
