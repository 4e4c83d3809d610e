"""The house bots pin the rating scale: a settled house bot keeps its rating in games with others.

A house bot (a built-in engine that no account owns, `Player.is_house_bot`) plays the same code
forever: its level cannot change, only what the ledger knows of it. Once that is known to within
SETTLED_DEVIATION, its rating is a reference the other players are measured against, the way an
engine rating list fixes its scale on a few engines. So in a rated game with at least one player that is
not a house bot, a settled house bot is *pinned*: the others are rated against its rating and
deviation as usual, and its own rating and deviation stay as they were (its ledger row says so).
Otherwise a bot still being placed (350 points unsure) would push the rungs it is placed against,
and a crowd of newcomers would move the very ladder that places them: a rung just settled (a
deviation of 100) that loses to a newcomer 100 points below it drops about 20 points in that one game.

A house bot learns only from games among house bots (`manage.py settle_house_ladder`, and an
unsettled house bot's games with anyone). A pinned game leaves its rating row as it was but for
the count of games: its deviation goes on growing with the time since its last game that moved it,
so after two to three months without one (from 30 or 60 to 100, ratings.elo.idle) it is unsettled
again, rated by the arena's games like any other player until it is settled once more.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.models import Player

# A house bot whose current deviation is at most this is settled: fit to place bots on the ladder
# (matchmaking.house) and pinned in games with others. The rungs are 100 to 150 Elo apart: a
# rung known to within about one step is the rung nearest the bot or the next one, where at the
# provisional deviation (150) a rung's 95% interval spans two steps either way. Reaching it from 350
# takes about a dozen games against near neighbours.
SETTLED_DEVIATION = 100.0


def may_pin(players: Sequence[Player]) -> list[bool]:
    """Per seat, whether the game may hold that player's rating: a house bot at a table with at least
    one player that is not a house bot. What a replay checks a `pinned` ledger row against."""
    house = [player.is_house_bot for player in players]
    mixed = not all(house)
    return [mixed and is_house for is_house in house]


def pinned(players: Sequence[Player], deviations: Sequence[float]) -> list[bool]:
    """Per seat, whether the player keeps its rating and deviation in this game: a settled house bot
    (its deviation at the game, idle growth included, at most SETTLED_DEVIATION) among others."""
    return [
        allowed and deviation <= SETTLED_DEVIATION
        for allowed, deviation in zip(may_pin(players), deviations, strict=True)
    ]
