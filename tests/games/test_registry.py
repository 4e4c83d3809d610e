from __future__ import annotations

import pytest

from games.registry import SetupError, UnknownGame, all_games, get_game


def test_the_registry_knows_la_part_du_chef_by_its_key() -> None:
    game = get_game("part-du-chef")
    assert game.name == "La Part du Chef"
    assert (game.min_players, game.max_players) == (2, 5)
    assert [g.key for g in all_games()] == ["part-du-chef"]
    state = game.new_state(4, 12, {"marianne": True, "marianne_seats": [2]})
    assert state.players == 4 and state.marianne_enabled and state.marianne_seats == {2}


def test_an_unknown_game_is_named_in_the_error() -> None:
    with pytest.raises(UnknownGame) as error:
        get_game("chess")
    assert str(error.value) == "unknown game 'chess'; available games: part-du-chef"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("fast", "options must be an object"),
        ({"speed": 3}, "unknown option 'speed': La Part du Chef has marianne, marianne_seats"),
        ({"marianne": "yes"}, "option 'marianne' must be true or false"),
        ({"marianne_seats": [0, 4]}, "option 'marianne_seats' must list seats between 0 and 3"),
    ],
)
def test_bad_options_are_refused_with_the_option_named(options: object, message: str) -> None:
    with pytest.raises(SetupError, match=f"^{message}$"):
        get_game("part-du-chef").validate_options(options, 4)


def test_options_are_normalised_with_their_defaults() -> None:
    game = get_game("part-du-chef")
    assert game.validate_options(None, 3) == {"marianne": False, "marianne_seats": [0, 1, 2]}
    assert game.validate_options({"marianne": True, "marianne_seats": [2, 0, 2]}, 3) == {
        "marianne": True,
        "marianne_seats": [0, 2],
    }


def test_player_counts_outside_two_to_five_are_refused_with_one_message() -> None:
    game = get_game("part-du-chef")
    game.check_players(2)
    game.check_players(5)
    for count in (0, 1, 6):
        with pytest.raises(SetupError, match=f"^La Part du Chef is played by 2 to 5 players, not {count}$"):
            game.check_players(count)
