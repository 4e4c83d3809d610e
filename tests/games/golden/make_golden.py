"""Regenerate the golden records: python -m tests.games.golden.make_golden (only when the rules change on purpose)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from games.part_du_chef import play_game
from games.part_du_chef.bots import get_bot

# (players, seed, marianne, marianne_seats)
GAMES: list[tuple[int, int, bool, list[int] | None]] = [
    (2, 1, False, None),
    (3, 2, True, None),
    (4, 3, False, None),
    (4, 4, True, None),
    (5, 5, True, [1, 3]),
    (5, 2026, False, None),
]
PATH = Path(__file__).with_name("random-games.jsonl")


def golden_game(players: int, seed: int, marianne: bool, seats: list[int] | None) -> dict[str, Any]:
    bots = [get_bot("random", seed * 100 + seat) for seat in range(players)]
    names = [f"random-{seat}" for seat in range(players)]
    return play_game(bots, seed, names=names, marianne=marianne, marianne_seats=seats)


def main() -> None:
    with PATH.open("w") as out:
        for game in GAMES:
            out.write(json.dumps(golden_game(*game), separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
