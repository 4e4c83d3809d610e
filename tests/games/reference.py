"""The reference rules engine: the plain implementation that the fast `State` is checked against.

This is the engine as it was before `state.py` was rewritten for speed, kept unchanged in what
it does (lists of slice ids, every legality check spelled out, chili sorts found by trying every
multiset at the end). tests/games/test_fast_engine.py replays thousands of seeded games through
both and requires identical records. Nothing else should use it: it is slower by design.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations, combinations_with_replacement, product
from typing import Final

from games.part_du_chef.actions import Action, Cut, Steal, Swap, Take
from games.part_du_chef.deck import (
    BURNT,
    BURNT_PENALTY,
    CHILI,
    DECK,
    IS_FINISHER,
    KIND_NAMES,
    KIND_OF,
    MAJORITY_VALUE,
    OLIVES_OF,
    PIZZAS,
    RING,
    SORTS,
    VARIETY_MULTIPLIER,
    deal,
)
from games.part_du_chef.observation import Observation
from games.part_du_chef.scoring import ChiliAssignment, Score, ranks_of


class IllegalAction(ValueError):
    """The reference's refusals, their English written out: the fast engine's, rendered from its codes'
    templates, must say exactly the same."""


MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
_KINDS: Final = len(KIND_NAMES)
_NOBODY: Final = -1


# Every multiset of sorts for 0..3 chilis, in the tie-break order the rules fix.
_CHILI_COMBOS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(combinations_with_replacement(SORTS, k)) for k in range(4)
)


def _majority_and_variety(mine: Sequence[int], best_other: Sequence[int]) -> int:
    """Majorities and variety for sort counts `mine` against the opponents' highest counts per sort."""
    points = 0
    for sort in SORTS:
        count = mine[sort]
        if count and count >= best_other[sort]:
            points += MAJORITY_VALUE[sort]
    return points + VARIETY_MULTIPLIER * min(mine)


def assign_chilis(kept: Sequence[Sequence[int]], chili_ids: Sequence[Sequence[int]]) -> list[ChiliAssignment]:
    """Give each kept chili a sort, seat by seat from seat 0.

    `kept` holds each seat's kept counts per kind. A holder's chilis get the multiset of sorts that
    maximises the holder's own majority + variety, counting the chilis of seats already assigned and
    ignoring the others; ties go to the first multiset in combinations_with_replacement order.
    """
    table = [list(row[:CHILI]) for row in kept]
    result: list[ChiliAssignment] = []
    for seat, ids in enumerate(chili_ids):
        if not ids:
            continue
        row = table[seat]
        best_other = [max([other[sort] for i, other in enumerate(table) if i != seat]) for sort in SORTS]
        best: tuple[int, ...] = ()
        best_points = -1
        for combo in _CHILI_COMBOS[len(ids)]:
            for sort in combo:
                row[sort] += 1
            points = _majority_and_variety(row, best_other)
            for sort in combo:
                row[sort] -= 1
            if points > best_points:
                best, best_points = combo, points
        for slice_id, sort in zip(sorted(ids), best, strict=True):
            row[sort] += 1
            result.append(ChiliAssignment(seat, slice_id, sort))
    return result


def final_scores(
    kept: Sequence[Sequence[int]],
    chili_ids: Sequence[Sequence[int]],
    olives: Sequence[int],
    received: Sequence[int],
) -> tuple[tuple[Score, ...], list[ChiliAssignment]]:
    """Scores per seat from kept counts per kind, kept chili ids, eaten olives and slice points."""
    chilis = assign_chilis(kept, chili_ids)
    table = [list(row[:CHILI]) for row in kept]
    for c in chilis:
        table[c.seat][c.sort] += 1
    scores = []
    highest = [max([row[sort] for row in table]) for sort in SORTS]
    for seat, row in enumerate(table):
        majority = 0
        for sort in SORTS:
            count = row[sort]
            if count and count == highest[sort]:
                majority += MAJORITY_VALUE[sort]
        variety = VARIETY_MULTIPLIER * min(row)
        burnt = BURNT_PENALTY * kept[seat][BURNT]
        total = majority + olives[seat] + received[seat] + variety + burnt
        scores.append(Score(seat, majority, olives[seat], received[seat], variety, burnt, total))
    return tuple(scores), chilis


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
    return tuple(doubled[cuts[i] : (cuts[i + 1] if i + 1 < n else cuts[0] + RING)] for i in range(n))


class ReferenceState:
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
    _unseen: tuple[tuple[int, ...], ...]
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
    ) -> ReferenceState:
        """A fresh game. `pizzas` overrides the deal of `seed` (used by searches over sampled deals)."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError("the number of players must be an integer")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"La Part du Chef is played by 2 to 5 players, not {players}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError("the seed must be an integer")
        seats = frozenset(range(players)) if marianne_seats is None else frozenset(marianne_seats)
        if any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < players for s in seats):
            raise ValueError(f"marianne_seats must be seats between 0 and {players - 1}")
        self = cls.__new__(cls)
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
        self.owner = [_NOBODY] * len(DECK)
        self.history = []
        self._unseen = _unseen_after(self.pizzas)
        self._pass_marianne()
        return self

    @classmethod
    def from_observation(cls, observation: Observation, pizzas: tuple[tuple[int, ...], ...]) -> ReferenceState:
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

    def clone(self) -> ReferenceState:
        other = ReferenceState.__new__(ReferenceState)
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
            raise IllegalAction("the game is over")
        actor = self.pizza % self.players
        if self.cuts is not None:
            actor = (actor + 1 + self.takes_done) % self.players
        if seat is not None and seat != actor:
            raise IllegalAction(f"it is seat {actor}'s turn, not seat {seat}'s")
        if self.cuts is None:
            if not isinstance(action, Cut):
                raise IllegalAction(f"seat {actor} must cut pizza {self.pizza + 1} before anyone takes")
            self._apply_cut(actor, action)
        else:
            if not isinstance(action, Take):
                raise IllegalAction(f"pizza {self.pizza + 1} is already cut: seat {actor} must take a portion")
            self._apply_take(actor, action)

    def _check_marianne_use(self, seat: int) -> None:
        if not self.marianne_enabled:
            raise IllegalAction("La Marianne is not in this game")
        if self.marianne_used:
            raise IllegalAction("La Marianne has already been used and has left the game")
        if self.marianne_holder != seat:
            holder = "nobody" if self.marianne_holder is None else f"seat {self.marianne_holder}"
            raise IllegalAction(f"seat {seat} does not hold La Marianne ({holder} does)")

    def _check_swap(self, seat: int, swap: Swap, owner_after: dict[int, int]) -> None:
        def owner(sid: int) -> int:
            return owner_after.get(sid, self.owner[sid])

        give, take = swap.give, swap.take
        for sid in give + take:
            if not 0 <= sid < len(DECK):
                raise IllegalAction(f"La Marianne names slice {sid}, which does not exist")
        if give[0] == give[1] or take[0] == take[1]:
            raise IllegalAction("La Marianne swaps two distinct slices for two distinct slices")
        for sid in give:
            if owner(sid) != seat:
                raise IllegalAction(f"La Marianne: slice {sid} is not among the slices seat {seat} keeps")
        for sid in take:
            if owner(sid) in (_NOBODY, seat):
                raise IllegalAction(f"La Marianne: slice {sid} is not kept by an opponent")

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
        kept[src] = tuple(s for s in kept[src] if s != sid)
        self.counts[src][kind] -= 1
        kept[dst] = kept[dst] + (sid,)
        self.counts[dst][kind] += 1
        self.owner[sid] = dst

    def _apply_cut(self, seat: int, action: Cut) -> None:
        cuts = action.cuts
        n = self.players
        if len(cuts) != n:
            raise IllegalAction(f"a cut for {n} players has {n} cut points, not {len(cuts)}")
        previous = -1
        for c in cuts:
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < RING:
                raise IllegalAction(f"cut point {c!r} is not a position between 0 and {RING - 1}")
            if c <= previous:
                raise IllegalAction("cut points must be distinct and listed in ascending order")
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
            raise IllegalAction(f"there is no portion {index!r}: portions are 0 to {len(taken_by) - 1}")
        if taken_by[index] is not None:
            raise IllegalAction(f"portion {index} is already taken by seat {taken_by[index]}")
        slices = self.portions[index]
        eat = action.eat
        for sid in eat:
            if sid not in slices:
                raise IllegalAction(f"slice {sid} is not in portion {index}")
            kind = KIND_OF[sid]
            if kind == CHILI:
                raise IllegalAction(f"slice {sid} is a chili: a chili cannot be eaten")
            if kind == BURNT:
                raise IllegalAction(f"slice {sid} is burnt: a burnt slice cannot be eaten")
        if len(set(eat)) != len(eat):
            raise IllegalAction("a slice is listed twice in eat")
        owner_after: dict[int, int] = {}
        if action.steals:
            used: set[int] = set()
            for steal in action.steals:
                f, victim, sid = steal.finisher, steal.victim, steal.slice
                if f not in slices or not IS_FINISHER[f]:
                    raise IllegalAction(f"slice {f} is not a double finisher in portion {index}")
                if f in eat:
                    raise IllegalAction(f"finisher {f} is eaten: only a kept finisher steals")
                if f in used:
                    raise IllegalAction(f"finisher {f} steals only once")
                used.add(f)
                if isinstance(victim, bool) or not isinstance(victim, int) or not 0 <= victim < self.players:
                    raise IllegalAction(f"there is no seat {victim!r} to steal from")
                if victim == seat:
                    raise IllegalAction("a finisher steals from an opponent, not from its taker")
                if not 0 <= sid < len(DECK) or self.owner[sid] != victim:
                    raise IllegalAction(f"seat {victim} does not keep slice {sid}")
                if KIND_OF[sid] != KIND_OF[f]:
                    raise IllegalAction(
                        f"finisher {f} steals {KIND_NAMES[KIND_OF[f]]}, and slice {sid} is {KIND_NAMES[KIND_OF[sid]]}"
                    )
                owner_after[sid] = seat
        if action.marianne is not None:
            self._check_marianne_use(seat)
            for sid in slices:
                if sid not in eat:
                    owner_after[sid] = seat
            self._check_swap(seat, action.marianne, owner_after)

        # Legal: apply.
        counts, owner = self.counts[seat], self.owner
        received = 0
        olives = 0
        kept: list[int] = []
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
        self.kept[seat] += tuple(kept)
        if eat:
            self.eaten[seat] += tuple(eat)
        self.received[seat] += received
        self.olives[seat] += olives
        for steal in action.steals:
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
        return [[s for s in k if KIND_OF[s] == CHILI] for k in self.kept]

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
            self._unseen[min(pizza, PIZZAS)],
        )

    def __repr__(self) -> str:
        return (
            f"<ReferenceState {self.players} players, pizza {self.pizza + 1}, {self.phase}, seat {self.to_act} to act>"
        )
