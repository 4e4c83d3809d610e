"""A settled house bot keeps its rating in games with bots still being placed: they do not move the ladder.

A house bot (a built-in engine that no account owns, `Player.is_house_bot`) plays the same code
forever: its level cannot change, only what the ledger knows of it. Once that is known to within
SETTLED_DEVIATION, it places new bots (matchmaking.house): they play their first games against the
settled rungs nearest them. A bot still being placed is up to 350 points unsure, and a crowd of them
entering at once would push the very rungs that place them: a rung just settled (a deviation of 100)
that loses to a newcomer 100 points below it drops about 20 points in that one game. So in a rated
game with a player still being placed (a player that is not a house bot, in its first
PROVISIONAL_GAMES rated games or owing a new version's placement games), a settled house bot is
*pinned*: the others are rated against its rating and deviation as usual, and its own rating row
stays as it was but for the count of games (its ledger row says so).

In every other game a house bot is rated like anyone: against house bots (`manage.py
settle_house_ladder`) and against placed players, whose games keep its rating the level it shows
where it actually plays (at every table size, against the arena's bots as they are) and its deviation
small. A pinned game does not touch the time of its last game that moved it, so its deviation goes on
growing from then as with any idle time.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.models import Player
from ratings.elo import PROVISIONAL_GAMES

# A house bot whose current deviation is at most this is settled: fit to place bots on the ladder
# (matchmaking.house) and pinned in their placement games. The rungs are 100 to 150 Elo apart: a
# rung known to within about one step is the rung nearest the bot or the next one, where at the
# provisional deviation (150) a rung's 95% interval spans two steps either way. Reaching it from 350
# takes about a dozen games against near neighbours.
SETTLED_DEVIATION = 100.0


def may_pin(players: Sequence[Player]) -> list[bool]:
    """Per seat, whether the game may hold that player's rating: a house bot at a table with at least
    one player that is not a house bot. What a replay checks a `pinned` ledger row against (it does not
    hold the placement games a new version owed)."""
    house = [player.is_house_bot for player in players]
    mixed = not all(house)
    return [mixed and is_house for is_house in house]


def is_placing(games: int, provisional_left: int) -> bool:
    """A rating still being placed: its first PROVISIONAL_GAMES games, or a new version's placement games."""
    return games < PROVISIONAL_GAMES or provisional_left > 0


def pinned(players: Sequence[Player], deviations: Sequence[float], placing: Sequence[bool]) -> list[bool]:
    """Per seat, whether the player keeps its rating and deviation in this game: a settled house bot
    (its deviation at the game, idle growth included, at most SETTLED_DEVIATION) at a table with a
    player that is not a house bot and is still `placing` (per seat, `is_placing` of its rating)."""
    house = [player.is_house_bot for player in players]
    with_newcomer = any(place and not is_house for place, is_house in zip(placing, house, strict=True))
    return [
        with_newcomer and is_house and deviation <= SETTLED_DEVIATION
        for is_house, deviation in zip(house, deviations, strict=True)
    ]
