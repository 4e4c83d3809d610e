"""The state of a game of La Part du Chef: whose decision it is, what is legal, and applying actions."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations, product
from typing import Any, Final

from .actions import Action, Cut, Steal, Swap, Take
from .deck import (
    BURNT,
    CHILI,
    CHILI_IDS,
    DECK,
    IS_FINISHER,
    KIND_NAMES,
    KIND_OF,
    OLIVES_OF,
    PIZZAS,
    RING,
    deal,
)
from .errors import IllegalAction
from .observation import Observation
from .recording import record_of
from .scoring import ChiliAssignment, Score, final_scores, ranks_of

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
_KINDS: Final = len(KIND_NAMES)
_NOBODY: Final = -1
_DECK_SIZE: Final = len(DECK)
_EVERY_SEAT: Final = {n: frozenset(range(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}


def _unseen_after(pizzas: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """Counts per kind of the slices in the pizzas after pizza p, for p = 0..5."""
    after = [(0,) * _KINDS] * (PIZZAS + 1)
    counts = [0] * _KINDS
    for p in range(PIZZAS - 1, 0, -1):
        for sid in pizzas[p]:
            counts[KIND_OF[sid]] += 1
        after[p - 1] = tuple(counts)
    return tuple(after)


def portions_of(ring: tuple[int, ...], cuts: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Portion i runs from cut i up to the position before cut i+1, the last one wrapping round."""
    n = len(cuts)
    doubled = ring + ring
    portions = []
    for i in range(n):
        portions.append(doubled[cuts[i] : cuts[i + 1] if i + 1 < n else cuts[0] + RING])
    return tuple(portions)


class State:
    """A game in progress. Seats 0..N-1; the seat to the left of s is s+1 (mod N)."""

    __slots__ = (
        "players",
        "seed",
        "pizzas",
        "marianne_enabled",
        "marianne_seats",
        "marianne_holder",
        "marianne_used",
        "pizza",
        "cuts",
        "portions",
        "taken_by",
        "takes_done",
        "kept",
        "counts",
        "eaten",
        "olives",
        "received",
        "owner",
        "history",
        "_unseen",
        "_marianne_seats_sorted",
    )

    players: int
    seed: int
    pizzas: tuple[tuple[int, ...], ...]
    marianne_enabled: bool
    marianne_seats: frozenset[int]
    marianne_holder: int | None
    marianne_used: bool
    pizza: int
    cuts: tuple[int, ...] | None
    portions: tuple[tuple[int, ...], ...]
    taken_by: list[int | None]
    takes_done: int
    kept: list[tuple[int, ...]]
    counts: list[list[int]]
    eaten: list[tuple[int, ...]]
    olives: list[int]
    received: list[int]
    owner: list[int]
    history: list[tuple[int, int, Action]]
    _unseen: tuple[tuple[int, ...], ...] | None
    _marianne_seats_sorted: tuple[int, ...]

    @classmethod
    def new(
        cls,
        players: int,
        seed: int,
        *,
        marianne: bool = False,
        marianne_seats: Iterable[int] | None = None,
        pizzas: tuple[tuple[int, ...], ...] | None = None,
    ) -> State:
        """A fresh game. `pizzas` overrides the deal of `seed` (used by searches over sampled deals)."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError("the number of players must be an integer")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"La Part du Chef is played by 2 to 5 players, not {players}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError("the seed must be an integer")
        if marianne_seats is None:
            seats = _EVERY_SEAT[players]
        else:
            seats = frozenset(marianne_seats)
            for s in seats:
                if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < players:
                    raise ValueError(f"marianne_seats must be seats between 0 and {players - 1}")
        self = cls()
        self.players = players
        self.seed = seed
        self.pizzas = deal(seed) if pizzas is None else pizzas
        self.marianne_enabled = bool(marianne)
        self.marianne_seats = seats
        self._marianne_seats_sorted = tuple(sorted(seats))
        self.marianne_holder = None
        self.marianne_used = False
        self.pizza = 0
        self.cuts = None
        self.portions = ()
        self.taken_by = []
        self.takes_done = 0
        self.kept = [()] * players
        self.counts = [[0] * _KINDS for _ in range(players)]
        self.eaten = [()] * players
        self.olives = [0] * players
        self.received = [0] * players
        self.owner = [_NOBODY] * _DECK_SIZE
        self.history = []
        # Only observations need the counts of slices to come: they are counted on the first one.
        self._unseen = None
        if marianne:
            self._pass_marianne()
        return self

    @classmethod
    def from_observation(cls, observation: Observation, pizzas: tuple[tuple[int, ...], ...]) -> State:
        """The state a seat observes, completed with `pizzas` for what it cannot see.

        `pizzas` must agree with the observation: the current pizza is its ring, and the pizzas
        already played hold exactly the kept and eaten slices not in that ring. Searches use it to
        play on from an observation over sampled deals. The history is unknown, so `turn` starts at 0.
        """
        if observation.phase == "over":
            raise ValueError("the game is over: there is no decision to play on from")
        current = observation.pizza
        if len(pizzas) != PIZZAS or pizzas[current] != observation.ring:
            raise ValueError(f"pizza {current + 1} of the given pizzas is not the ring the seat sees")
        held = {sid for ids in (*observation.kept, *observation.eaten) for sid in ids}
        played = {sid for ring in pizzas[:current] for sid in ring}
        if played != held - set(observation.ring):
            raise ValueError("the given pizzas already played do not hold the slices the players have")
        state = cls.new(
            observation.players,
            0,
            marianne=observation.marianne_enabled,
            marianne_seats=observation.marianne_seats,
            pizzas=pizzas,
        )
        state.pizza = current
        state.cuts = observation.cuts
        state.portions = observation.portions
        state.taken_by = list(observation.taken_by)
        state.takes_done = sum(1 for who in observation.taken_by if who is not None)
        state.kept = list(observation.kept)
        state.eaten = list(observation.eaten)
        state.olives = list(observation.olives)
        state.received = list(observation.slices)
        for seat, ids in enumerate(observation.kept):
            row = state.counts[seat]
            for sid in ids:
                row[KIND_OF[sid]] += 1
                state.owner[sid] = seat
        state.marianne_holder = observation.marianne_holder
        state.marianne_used = observation.marianne_enabled and not observation.marianne_in_play
        return state

    def clone(self) -> State:
        other = State()
        other.players = self.players
        other.seed = self.seed
        other.pizzas = self.pizzas
        other.marianne_enabled = self.marianne_enabled
        other.marianne_seats = self.marianne_seats
        other._marianne_seats_sorted = self._marianne_seats_sorted
        other.marianne_holder = self.marianne_holder
        other.marianne_used = self.marianne_used
        other.pizza = self.pizza
        other.cuts = self.cuts
        other.portions = self.portions
        other.taken_by = self.taken_by[:]
        other.takes_done = self.takes_done
        other.kept = self.kept[:]
        other.counts = [c[:] for c in self.counts]
        other.eaten = self.eaten[:]
        other.olives = self.olives[:]
        other.received = self.received[:]
        other.owner = self.owner[:]
        other.history = self.history[:]
        other._unseen = self._unseen
        return other

    def with_pizzas(self, pizzas: tuple[tuple[int, ...], ...]) -> State:
        """A copy of this position dealt other pizzas from the current one on (those before it stay as they were)."""
        if len(pizzas) != len(self.pizzas) or pizzas[: self.pizza] != self.pizzas[: self.pizza]:
            raise ValueError("only the pizzas not yet revealed may differ")
        if sorted(s for ring in pizzas for s in ring) != sorted(s for ring in self.pizzas for s in ring):
            raise ValueError("the pizzas must hold the same slices")
        other = self.clone()
        other.pizzas = pizzas
        other._unseen = None
        return other

    # -- whose turn ------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.pizza >= PIZZAS

    @property
    def chef(self) -> int:
        return self.pizza % self.players

    @property
    def phase(self) -> str:
        if self.pizza >= PIZZAS:
            return "over"
        return "cut" if self.cuts is None else "take"

    @property
    def to_act(self) -> int | None:
        if self.pizza >= PIZZAS:
            return None
        chef = self.pizza % self.players
        if self.cuts is None:
            return chef
        return (chef + 1 + self.takes_done) % self.players

    @property
    def turn(self) -> int:
        """How many actions have been applied: a client names it to answer a given decision."""
        return len(self.history)

    @property
    def ring(self) -> tuple[int, ...]:
        return self.pizzas[self.pizza] if self.pizza < PIZZAS else ()

    # -- legal choices ---------------------------------------------------------------------

    def legal_cuts(self) -> list[Cut]:
        """Every cut of the current pizza, in ascending order of cut points."""
        if self.phase != "cut":
            return []
        return [Cut(c) for c in combinations(range(RING), self.players)]

    def available_portions(self) -> list[int]:
        return [i for i, who in enumerate(self.taken_by) if who is None]

    def steal_options(self, seat: int, finisher: int) -> list[tuple[int, int]]:
        """(victim, slice) pairs a kept `finisher` may steal for `seat`, in seat then id order."""
        kind = KIND_OF[finisher]
        return [
            (victim, sid)
            for victim in range(self.players)
            if victim != seat
            for sid in sorted(self.kept[victim])
            if KIND_OF[sid] == kind
        ]

    def can_use_marianne(self, seat: int) -> bool:
        return self.marianne_holder == seat and not self.marianne_used

    def legal_actions(self) -> list[Action]:
        """Every legal action without La Marianne, sorted (cuts by points; takes by portion, eat, steals).

        Takes multiply eat subsets by steal choices, so with large portions the list is long; bots
        usually build actions from `available_portions` and `steal_options` instead.
        """
        if self.phase == "cut":
            return list(self.legal_cuts())
        if self.phase != "take":
            return []
        seat = self.to_act
        assert seat is not None
        actions: list[Action] = []
        for index in self.available_portions():
            slices = self.portions[index]
            edible = sorted(s for s in slices if KIND_OF[s] < CHILI)
            for size in range(len(edible) + 1):
                for eat in combinations(edible, size):
                    finishers = sorted(s for s in slices if IS_FINISHER[s] and s not in eat)
                    choices = [[None] + [Steal(f, v, s) for v, s in self.steal_options(seat, f)] for f in finishers]
                    for picked in product(*choices):
                        steals = tuple(s for s in picked if s is not None)
                        actions.append(Take(index, eat, steals))
        actions.sort(key=lambda a: (a.portion, a.eat, a.steals) if isinstance(a, Take) else ())
        return actions

    def legal_swaps(self) -> Iterator[Swap]:
        """La Marianne swaps open to its holder now (to attach to a cut, whose kept slices do not change)."""
        seat = self.marianne_holder
        if seat is None or self.marianne_used:
            return
        mine = sorted(self.kept[seat])
        theirs = sorted(s for s in range(len(DECK)) if self.owner[s] not in (_NOBODY, seat))
        for give in combinations(mine, 2):
            for take in combinations(theirs, 2):
                yield Swap(give, take)

    # -- applying actions ------------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Play `action` for the seat to act (checked against `seat` when given)."""
        if self.pizza >= PIZZAS:
            raise IllegalAction("game_over")
        actor = self.pizza % self.players
        if self.cuts is not None:
            actor = (actor + 1 + self.takes_done) % self.players
        if seat is not None and seat != actor:
            raise IllegalAction("not_your_turn", actor=actor, seat=seat)
        if self.cuts is None:
            if not isinstance(action, Cut):
                raise IllegalAction("cut_first", actor=actor, pizza=self.pizza + 1)
            self._apply_cut(actor, action)
        else:
            if not isinstance(action, Take):
                raise IllegalAction("already_cut", actor=actor, pizza=self.pizza + 1)
            self._apply_take(actor, action)

    def _check_marianne_use(self, seat: int) -> None:
        if not self.marianne_enabled:
            raise IllegalAction("marianne_absent")
        if self.marianne_used:
            raise IllegalAction("marianne_used")
        if self.marianne_holder != seat:
            holder = "nobody" if self.marianne_holder is None else f"seat {self.marianne_holder}"
            raise IllegalAction("marianne_not_held", seat=seat, holder=holder)

    def _check_swap(self, seat: int, swap: Swap, owner_after: dict[int, int]) -> None:
        def owner(sid: int) -> int:
            return owner_after.get(sid, self.owner[sid])

        give, take = swap.give, swap.take
        for sid in give + take:
            if not 0 <= sid < len(DECK):
                raise IllegalAction("marianne_no_such_slice", slice=sid)
        if give[0] == give[1] or take[0] == take[1]:
            raise IllegalAction("marianne_same_slice")
        for sid in give:
            if owner(sid) != seat:
                raise IllegalAction("marianne_give_not_kept", slice=sid, seat=seat)
        for sid in take:
            if owner(sid) in (_NOBODY, seat):
                raise IllegalAction("marianne_take_not_opponents", slice=sid)

    def _apply_swap(self, seat: int, swap: Swap) -> None:
        for give, take in zip(swap.give, swap.take, strict=True):
            other = self.owner[take]
            self._move(take, other, seat)
            self._move(give, seat, other)
        self.marianne_used = True
        self.marianne_holder = None

    def _move(self, sid: int, src: int, dst: int) -> None:
        kind = KIND_OF[sid]
        kept = self.kept
        kept[src] = tuple([s for s in kept[src] if s != sid])
        self.counts[src][kind] -= 1
        kept[dst] = kept[dst] + (sid,)
        self.counts[dst][kind] += 1
        self.owner[sid] = dst

    def _check_steals(
        self,
        seat: int,
        index: int,
        slices: tuple[int, ...],
        eat: tuple[int, ...],
        steals: tuple[Steal, ...],
        owner_after: dict[int, int],
    ) -> None:
        used: set[int] = set()
        for steal in steals:
            f, victim, sid = steal.finisher, steal.victim, steal.slice
            if f not in slices or not IS_FINISHER[f]:
                raise IllegalAction("steal_not_finisher", finisher=f, portion=index)
            if f in eat:
                raise IllegalAction("steal_finisher_eaten", finisher=f)
            if f in used:
                raise IllegalAction("steal_twice", finisher=f)
            used.add(f)
            if isinstance(victim, bool) or not isinstance(victim, int) or not 0 <= victim < self.players:
                raise IllegalAction("steal_no_such_seat", victim=repr(victim))
            if victim == seat:
                raise IllegalAction("steal_from_self")
            if not isinstance(sid, int) or not 0 <= sid < _DECK_SIZE or self.owner[sid] != victim:
                raise IllegalAction("steal_not_kept", victim=victim, slice=sid)
            if KIND_OF[sid] != KIND_OF[f]:
                raise IllegalAction(
                    "steal_other_sort",
                    finisher=f,
                    sort=KIND_NAMES[KIND_OF[f]],
                    slice=sid,
                    slice_sort=KIND_NAMES[KIND_OF[sid]],
                )
            owner_after[sid] = seat

    def _apply_cut(self, seat: int, action: Cut) -> None:
        cuts = action.cuts
        n = self.players
        if len(cuts) != n:
            raise IllegalAction("cut_count", players=n, given=len(cuts))
        previous = -1
        for c in cuts:
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < RING:
                raise IllegalAction("cut_point_off_ring", point=repr(c), last=RING - 1)
            if c <= previous:
                raise IllegalAction("cut_points_unordered")
            previous = c
        if action.marianne is not None:
            self._check_marianne_use(seat)
            self._check_swap(seat, action.marianne, {})
        self.cuts = cuts
        self.portions = portions_of(self.pizzas[self.pizza], cuts)
        self.taken_by = [None] * n
        self.takes_done = 0
        self.history.append((seat, self.pizza, action))
        if action.marianne is not None:
            self._apply_swap(seat, action.marianne)

    def _apply_take(self, seat: int, action: Take) -> None:
        index = action.portion
        taken_by = self.taken_by
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(taken_by):
            raise IllegalAction("no_such_portion", portion=repr(index), last=len(taken_by) - 1)
        taker = taken_by[index]
        if taker is not None:
            raise IllegalAction("portion_taken", portion=index, taker=taker)
        slices = self.portions[index]
        eat = action.eat
        for sid in eat:
            if sid not in slices:
                raise IllegalAction("eat_outside_portion", slice=sid, portion=index)
            kind = KIND_OF[sid]
            if kind == CHILI:
                raise IllegalAction("eat_chili", slice=sid)
            if kind == BURNT:
                raise IllegalAction("eat_burnt", slice=sid)
        if len(eat) > 1 and len(set(eat)) != len(eat):
            raise IllegalAction("eat_twice")
        owner_after: dict[int, int] = {}
        steals = action.steals
        if steals:
            self._check_steals(seat, index, slices, eat, steals, owner_after)
        if action.marianne is not None:
            self._check_marianne_use(seat)
            for sid in slices:
                if sid not in eat:
                    owner_after[sid] = seat
            self._check_swap(seat, action.marianne, owner_after)

        # Legal: apply.
        counts, owner = self.counts[seat], self.owner
        received = 0
        kept: list[int] = []
        if eat:
            olives = 0
            for sid in slices:
                kind = KIND_OF[sid]
                if kind != BURNT:
                    received += 1
                if sid in eat:
                    olives += OLIVES_OF[sid]
                else:
                    kept.append(sid)
                    counts[kind] += 1
                    owner[sid] = seat
            self.eaten[seat] += tuple(eat)
            self.olives[seat] += olives
            self.kept[seat] += tuple(kept)
        else:
            for sid in slices:
                kind = KIND_OF[sid]
                if kind != BURNT:
                    received += 1
                counts[kind] += 1
                owner[sid] = seat
            self.kept[seat] += slices
        self.received[seat] += received
        for steal in steals:
            self._move(steal.slice, steal.victim, seat)
        taken_by[index] = seat
        self.takes_done += 1
        self.history.append((seat, self.pizza, action))
        if action.marianne is not None:
            self._apply_swap(seat, action.marianne)
        if self.takes_done == self.players:
            self.pizza += 1
            self.cuts = None
            self.portions = ()
            self.taken_by = []
            self.takes_done = 0
            self._pass_marianne()

    def _pass_marianne(self) -> None:
        if (
            self.marianne_enabled
            and not self.marianne_used
            and self.pizza < PIZZAS
            and self.pizza % self.players in self.marianne_seats
        ):
            self.marianne_holder = self.pizza % self.players

    # -- results ---------------------------------------------------------------------------

    def _kept_chilis(self) -> list[list[int]]:
        # Chilis are always kept, so their owners say who holds them.
        held: list[list[int]] = [[] for _ in range(self.players)]
        owner = self.owner
        for sid in CHILI_IDS:
            if owner[sid] >= 0:
                held[owner[sid]].append(sid)
        return held

    def results(self) -> tuple[tuple[Score, ...], list[ChiliAssignment]]:
        """Scores (as if the game ended now) and the chili assignment they rest on."""
        return final_scores(self.counts, self._kept_chilis(), self.olives, self.received)

    def scores(self) -> tuple[Score, ...]:
        return self.results()[0]

    def ranks(self) -> tuple[int, ...]:
        return ranks_of([s.total for s in self.scores()])

    def observation(self, seat: int) -> Observation:
        """What `seat` may see: the current pizza, every take so far, never the pizzas to come."""
        if not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat} in a game of {self.players}")
        pizza = self.pizza
        over = pizza >= PIZZAS
        chef = pizza % self.players
        cuts = self.cuts
        if over:
            phase, to_act = "over", None
        elif cuts is None:
            phase, to_act = "cut", chef
        else:
            phase, to_act = "take", (chef + 1 + self.takes_done) % self.players
        return Observation(
            seat,
            self.players,
            pizza,
            chef,
            phase,
            to_act,
            len(self.history),
            () if over else self.pizzas[pizza],
            cuts,
            self.portions,
            tuple(self.taken_by),
            tuple(self.kept),
            tuple(self.eaten),
            tuple(self.olives),
            tuple(self.received),
            self.marianne_enabled,
            self.marianne_enabled and not self.marianne_used,
            self.marianne_holder,
            self._marianne_seats_sorted,
            self._unseen_counts()[min(pizza, PIZZAS)],
        )

    def _unseen_counts(self) -> tuple[tuple[int, ...], ...]:
        unseen = self._unseen
        if unseen is None:
            unseen = self._unseen = _unseen_after(self.pizzas)
        return unseen

    def to_record(self, players: list[str] | tuple[str, ...], extra: dict[str, Any] | None = None) -> dict[str, Any]:
        return record_of(self, list(players), extra)

    def __repr__(self) -> str:
        return f"<State {self.players} players, pizza {self.pizza + 1}, {self.phase}, seat {self.to_act} to act>"
