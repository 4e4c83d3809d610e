"""The tables of one duplicate deal advance in lockstep, pizza by pizza.

Every table of a duplicate deal is dealt the same five pizzas. A bot that sits at two of those
tables (a hosted bot is a server that can remember; any bot process that serves several games can)
would learn at the table that is ahead what the other table has not shown yet. So the tables of a
deal are played side by side, and no seat at any of them is asked a decision on pizza k, nor told
the final scores, before every table of the deal has reached pizza k (or is over): whatever a bot
sees at one table, every other table of the deal has shown already.

The waiting is deadlock-free: a table waits only for tables that are behind it, and the table
furthest behind never waits. Time spent waiting is never a bot's: a seat's clock runs only while
it is asked a decision.

`play_deal_in_lockstep` plays a comparison's deal so, for the server (submissions.comparing) and for
the local `part-du-chef compare` (botclient.local) alike; the arena's deals of tables are played
the same way by results.deals.

>>> from games.part_du_chef import State
>>> group = Lockstep(2)
>>> pace = group.pacer(0)
>>> state = State.new(2, 7)
>>> pace(state)  # pizza 0: nothing to wait for
>>> group.reached(0), group.reached(1)
(0, 0)
>>> group.done(1)
>>> group.reached(1) >= LAST_PIZZA
True
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

from games.part_du_chef import State
from games.part_du_chef.comparison import play_one_by_one
from games.part_du_chef.deck import PIZZAS
from games.part_du_chef.seating import NamedBot, Pace, Played, play_lineup

# The game's last pizza: a table that is over has shown every pizza of the deal.
LAST_PIZZA = PIZZAS - 1


class Lockstep:
    """Holds back the tables of one deal so that none is a pizza ahead of another."""

    def __init__(self, tables: int) -> None:
        self._reached = [0] * tables
        self._over = [False] * tables
        self._changed = threading.Condition()

    def reached(self, table: int) -> int:
        with self._changed:
            return LAST_PIZZA if self._over[table] else self._reached[table]

    def pacer(self, table: int) -> Pace:
        """The hook a table's game calls before each decision and before the final scores are sent."""

        def pace(state: State) -> None:
            level = LAST_PIZZA if state.is_over else state.pizza
            with self._changed:
                if level > self._reached[table]:
                    self._reached[table] = level
                    self._changed.notify_all()
                self._changed.wait_for(lambda: self._caught_up(level))

        return pace

    def done(self, table: int) -> None:
        """The table's game is over, or ended early (an error): it holds nobody back any more."""
        with self._changed:
            self._over[table] = True
            self._changed.notify_all()

    def _caught_up(self, level: int) -> bool:
        return all(over or reached >= level for reached, over in zip(self._reached, self._over, strict=True))


T = TypeVar("T")


def run_tables(
    plays: Sequence[Callable[[Pace], T]], *, name: str, after_table: Callable[[], None] | None = None
) -> list[T | BaseException]:
    """Each of a deal's tables played on a thread of its own, held in lockstep (each play is handed its
    table's pace); what each returned or raised, in table order, once every table has ended.

    A table that ends early (an error) holds nobody back. ``after_table`` runs on each table's thread
    as it ends (the server closes the thread's own database connection there).
    """
    lockstep = Lockstep(len(plays))
    results: list[T | BaseException] = [RuntimeError("the table was not played")] * len(plays)

    def run(table: int) -> None:
        try:
            results[table] = plays[table](lockstep.pacer(table))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, on its own thread
            results[table] = exc
        finally:
            lockstep.done(table)
            if after_table is not None:
                after_table()

    threads = [
        threading.Thread(target=run, args=(table,), name=f"{name}-table-{table}", daemon=True)
        for table in range(len(plays))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def play_deal_in_lockstep(
    lineups: Sequence[Sequence[NamedBot]],
    seed: int,
    marianne: bool,
    *,
    after_table: Callable[[], None] | None = None,
) -> list[Played]:
    """A deal's games (every lineup dealt from ``seed``) side by side, each on a thread of its own, in lockstep.

    Played one after the other, a bot that sits at several of the deal's tables and remembers (a
    hosted bot, a process that serves several games) would know the deal from its first game on. In
    lockstep no game shows a pizza before every game of the deal has reached it. Built-in bots
    remember nothing: a deal of theirs alone is played one game after the other, as always.
    ``after_table`` runs on each table's thread as it ends (the server closes the thread's database
    connection there). The first table's error, if any, is raised once every table has ended.
    """
    if all(bot.builtin for lineup in lineups for bot in lineup):
        return play_one_by_one(lineups, seed, marianne)

    def table(lineup: Sequence[NamedBot]) -> Callable[[Pace], Played]:
        return lambda pace: play_lineup(lineup, seed, marianne=marianne, with_record=False, pace=pace)

    games = run_tables(
        [table(lineup) for lineup in lineups],
        name=f"deal-{seed}",
        after_table=after_table,
    )
    played: list[Played] = []
    for game in games:
        if isinstance(game, BaseException):
            raise game
        played.append(game)
    return played
