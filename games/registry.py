"""The games the arena knows, by key, so the service never reaches into a rules package's internals."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .part_du_chef import MAX_PLAYERS, MIN_PLAYERS, State, replay
from .part_du_chef.bots import BOT_NAMES, Bot, get_bot
from .part_du_chef.errors import Params


class UnknownGame(KeyError):
    """The one answer to "is this game known?"; the message names the games that are."""

    code = "unknown_game"

    @property
    def params(self) -> Params:
        return {"game": str(self.args[0]), "games": ", ".join(sorted(_GAMES))}

    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r}; available games: {self.params['games']}"


# The English message of each SetupError code (the rules package's errors carry a code in the same way).
SETUP_MESSAGES: dict[str, str] = {
    "player_count": "{game} is played by {min} to {max} players, not {players}",
    "options_not_object": "options must be an object",
    "unknown_option": "unknown option {option}: {game} has {options}",
    "option_not_boolean": "option '{option}' must be true or false",
    "option_bad_seats": "option '{option}' must list seats between 0 and {last}",
}


class SetupError(ValueError):
    """A game set up as its rules do not allow (seat count, options): a stable `code`, its `params`,
    and the English message of the code's template."""

    def __init__(self, code: str, **params: str | int) -> None:
        super().__init__(SETUP_MESSAGES[code].format(**params))
        self.code = code
        self.params: Params = params

    def __reduce__(self) -> tuple[object, ...]:
        return (_setup_error, (self.code, self.params))


def _setup_error(code: str, params: Params) -> SetupError:
    return SetupError(code, **params)


@dataclass(frozen=True)
class GameSpec:
    key: str
    name: str
    min_players: int
    max_players: int
    options: Mapping[str, Mapping[str, Any]]
    bot_names: tuple[str, ...]
    record_format: str
    new_state: Callable[..., State] = field(repr=False)
    replay: Callable[..., State] = field(repr=False)
    get_bot: Callable[[str, int], Bot] = field(repr=False)

    def check_players(self, players: int) -> None:
        """The one check of a seat count (a match, a table, an arena pool, a tournament's tables)."""
        if not self.min_players <= players <= self.max_players:
            raise SetupError(
                "player_count", game=self.name, min=self.min_players, max=self.max_players, players=players
            )

    def validate_options(self, options: object, players: int) -> dict[str, Any]:
        """The options normalised (defaults filled in), or SetupError naming the bad one."""
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise SetupError("options_not_object")
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            raise SetupError(
                "unknown_option", option=repr(unknown[0]), game=self.name, options=", ".join(sorted(self.options))
            )
        marianne = options.get("marianne", False)
        if not isinstance(marianne, bool):
            raise SetupError("option_not_boolean", option="marianne")
        seats = options.get("marianne_seats", list(range(players)))
        if not isinstance(seats, list) or any(
            isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < players for s in seats
        ):
            raise SetupError("option_bad_seats", option="marianne_seats", last=players - 1)
        return {"marianne": marianne, "marianne_seats": sorted(set(seats))}

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": {k: dict(v) for k, v in self.options.items()},
            "bots": list(self.bot_names),
            "record_format": self.record_format,
        }


def _new_part_du_chef(players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
    options = options or {}
    return State.new(
        players, seed, marianne=bool(options.get("marianne", False)), marianne_seats=options.get("marianne_seats")
    )


PART_DU_CHEF = GameSpec(
    key="part-du-chef",
    name="La Part du Chef",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options={
        "marianne": {"type": "boolean", "default": False, "help": "play with La Marianne, the one-use swap card"},
        "marianne_seats": {
            "type": "array",
            "default": "all seats",
            "help": "the seats eligible to hold La Marianne (the house's fans)",
        },
    },
    bot_names=BOT_NAMES,
    record_format="part-du-chef/1",
    new_state=_new_part_du_chef,
    replay=replay,
    get_bot=get_bot,
)

_GAMES: dict[str, GameSpec] = {PART_DU_CHEF.key: PART_DU_CHEF}


def get_game(key: str) -> GameSpec:
    try:
        return _GAMES[key]
    except KeyError:
        raise UnknownGame(key) from None


def all_games() -> list[GameSpec]:
    return list(_GAMES.values())
