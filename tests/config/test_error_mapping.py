"""Every refusal of the arena is an ArenaError whose subclass says its HTTP status, mapped in one function."""

from __future__ import annotations

import pytest

from arena import errors
from config.errors import domain_error_response
from games.part_du_chef import IllegalAction, InvalidAction


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (errors.RequestError("unknown game 'chess'"), 400),
        (errors.UnplayablePlayer("bot 3 (x) is retired"), 400),
        (errors.PlayError("turn 9 has not come yet"), 400),
        (errors.GameOver("the game is over"), 400),
        (errors.StaleTurn("turn 1 has already been played"), 409),
        (errors.NotSeated("you have no seat at match 4"), 404),
        (IllegalAction("portion 7 does not exist"), 400),
        (InvalidAction("portion must be an integer, not 'x'"), 400),
    ],
)
def test_each_refusal_is_answered_with_its_status_and_its_message(error: Exception, status: int) -> None:
    response = domain_error_response(error)
    assert response is not None
    assert (response.status_code, response.data) == (status, {"detail": str(error)})


def test_every_refusal_class_derives_from_the_one_base_class() -> None:
    classes = [errors.RequestError, errors.UnplayablePlayer, errors.PlayError, errors.GameOver]
    classes += [errors.StaleTurn, errors.NotSeated]
    assert all(issubclass(cls, errors.ArenaError) for cls in classes)


def test_an_error_that_is_not_a_refusal_is_left_to_the_generic_handler() -> None:
    assert domain_error_response(RuntimeError("boom")) is None
