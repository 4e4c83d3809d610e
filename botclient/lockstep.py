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

from games.part_du_chef import State
from games.part_du_chef.deck import PIZZAS
from games.part_du_chef.seating import Pace

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
