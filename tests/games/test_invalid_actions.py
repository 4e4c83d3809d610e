"""A malformed action (InvalidAction: not an action at all) is told apart from a well-formed one the
position does not allow (IllegalAction), as python-chess tells InvalidMoveError from IllegalMoveError."""

from __future__ import annotations

import pytest

from games.part_du_chef import IllegalAction, InvalidAction, RecordError, State, action_from_json, record_of, replay


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ("cut", "an action must be a JSON object"),
        ({"type": "pass"}, "unknown action type 'pass': expected 'cut' or 'take'"),
        ({"type": "cut", "cuts": "0,4,8"}, "cuts must be a list of integers"),
        ({"type": "take", "portion": True}, "portion must be an integer, not True"),
        ({"type": "take", "portion": 0, "steals": "all"}, "steals must be a list"),
        ({"type": "cut", "cuts": [0, 4, 8], "marianne": {"give": [1], "take": [2]}}, "La Marianne swaps exactly"),
    ],
)
def test_a_malformed_action_is_invalid_and_never_reaches_the_position(obj: object, message: str) -> None:
    with pytest.raises(InvalidAction, match=f"^{message}"):
        action_from_json(obj)


def test_a_well_formed_action_the_position_refuses_is_illegal_not_invalid() -> None:
    state = State.new(3, seed=29)
    action = action_from_json({"type": "take", "portion": 0})  # well formed: the parser accepts it
    with pytest.raises(IllegalAction) as refused:
        state.apply(action)  # but the chef must cut first
    assert not isinstance(refused.value, InvalidAction)
    assert not issubclass(InvalidAction, IllegalAction) and not issubclass(IllegalAction, InvalidAction)


def test_a_record_with_a_malformed_action_is_a_record_error_naming_it() -> None:
    state = State.new(2, seed=29)
    state.apply(state.legal_cuts()[0])
    record = record_of(state, ["ann", "ben"])
    record["actions"][0]["cuts"] = "everywhere"
    with pytest.raises(RecordError, match="cuts must be a list of integers"):
        replay(record, allow_unfinished=True)
