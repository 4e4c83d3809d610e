"""Bots named on the command line: built-in names, or whatever an injected resolver understands.

The rules package knows its built-in bots only. Other bots (a bot program, a hosted bot's URL) come
from resolvers handed to the command line (`cli.main(argv, resolvers=...)`): the `part-du-chef`
command gives one from `botclient` that runs programs through protocol v1, as the arena does.
A resolver also plays the games its bots sit in, since only it knows their failure policy.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .actions import Action
from .bots import BOT_NAMES, NOISY_GREEDY, is_bot_name
from .placing import RECORD_FIELD, placings, record_verdict
from .play import play_state
from .simulation import GameResult, bot_seed, make_bot
from .state import State

# Called before each decision of a game and before its final scores (see BotResolver.play).
Pace = Callable[[State], None]


@dataclass(frozen=True)
class Outcome:
    """How the seats of a game played under the failure policy went."""

    # Per seat, why it forfeited (None: it did not).
    forfeits: tuple[str | None, ...]
    # Per action of the game, whether the stand-in decided it for a seat that had forfeited.
    stand_in: tuple[bool, ...]


class BotResolver(Protocol):
    """Bots the rules package does not know, for the commands that name bots."""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Options of its own (each command that names bots gets them)."""

    def configure(self, args: argparse.Namespace) -> None:
        """Read those options before any bot is resolved."""

    def resolve(self, spec: str) -> Callable[[int], Any] | None:
        """A maker of fresh seats (one per game, given the seat's seed) for ``spec``, or None if not its kind.

        Raises BotError naming the problem when ``spec`` is of its kind but unusable.
        """

    def play(self, state: State, seats: Sequence[Any], pace: Pace | None = None) -> Outcome:
        """Play ``state`` to its end with these seats, under the arena's failure policy.

        ``pace``, where given, is called before each decision and before the final scores: the
        games of one duplicate deal played side by side wait for each other there.
        """

    def play_deal(self, lineups: Sequence[Sequence[NamedBot]], seed: int, marianne: bool) -> list[Played]:
        """Play the games of one duplicate deal, every lineup dealt from ``seed``, in the order of ``lineups``.

        A bot that sits at several of them and remembers must learn at none what another has not shown
        yet: `compare` has its resolver play each deal (the `part-du-chef` command's plays them side by
        side, pizza by pizza: botclient.lockstep).
        """

    def close(self) -> None:
        """Release whatever resolving took (unpacked files...)."""


class BotError(ValueError):
    """A bot named on the command line cannot be played; the message names the problem (exit status 2)."""


class UnknownBot(BotError):
    """A bot name nobody understands; the message says what is understood."""


@dataclass(frozen=True)
class NamedBot:
    label: str
    make: Callable[[int], Any]
    resolver: BotResolver | None = None  # None: a built-in bot
    # A built-in bot's name, which says how its decisions are drawn (games.part_du_chef.control_variates);
    # None for a bot of unknown policy, such as a program or an in-process stand-in.
    policy: str | None = None

    @property
    def builtin(self) -> bool:
        return self.resolver is None


@dataclass(frozen=True)
class Played:
    result: GameResult
    forfeits: tuple[str | None, ...]
    # The arena's placings (games.part_du_chef.placing): a forfeiter below every seat that did not forfeit.
    placings: tuple[int, ...]
    # What the game's luck is corrected from after it (games.part_du_chef.control_variates): its actions
    # as State.history holds them, which of them the stand-in decided, each seat's known policy.
    history: tuple[tuple[int, int, Action], ...] = ()
    stand_in: tuple[bool, ...] = ()
    policies: tuple[str | None, ...] = ()
    marianne: bool = False


_PROGRAM_HINTS = (".py", ".js", ".zip", "/", "\\", "http:", "https:")


def looks_like_program(spec: str) -> bool:
    return spec.lower().endswith(_PROGRAM_HINTS[:3]) or any(h in spec for h in _PROGRAM_HINTS[3:])


def resolve_bot(spec: str, resolvers: Sequence[BotResolver], search_playouts: int | None = None) -> NamedBot:
    name = spec.strip()
    if is_bot_name(name):
        return NamedBot(name, lambda seed: make_bot(name, seed, search_playouts), policy=name)
    for resolver in resolvers:
        make = resolver.resolve(name)
        if make is not None:
            return NamedBot(name, make, resolver)
    if not resolvers and looks_like_program(name):
        raise UnknownBot(
            f"{name!r} is a bot program or URL: `python -m games.part_du_chef` plays built-in bots only; "
            f"use the `part-du-chef` command (.venv/bin/part-du-chef), e.g. part-du-chef simulate --bots {name},greedy"
        )
    understood = (
        f"built-in bots are {', '.join(BOT_NAMES)}, and {NOISY_GREEDY}P (greedy with P% random moves, P from 1 to 99)"
    )
    if resolvers:
        understood += "; or a bot program (.py, .js, a folder or .zip holding main.py) or an http(s) URL"
    raise UnknownBot(f"unknown bot {name!r}: {understood}")


def play_lineup(
    bots: Sequence[NamedBot], seed: int, *, marianne: bool = False, with_record: bool = True, pace: Pace | None = None
) -> Played:
    """One game dealt from ``seed`` with these bots in seat order (seat s seeded ``bot_seed(seed, s)``).

    ``pace`` reaches the resolver that plays external bots (built-in bots remember nothing).
    """
    labels = [bot.label for bot in bots]
    externals = [bot.resolver for bot in bots if bot.resolver is not None]
    start = time.perf_counter()
    seats = [bot.make(bot_seed(seed, seat)) for seat, bot in enumerate(bots)]
    if externals:
        state = State.new(len(bots), seed, marianne=marianne)
        outcome = externals[0].play(state, seats, pace)
    else:
        # Built-in bots only: the plain loop, exactly as `simulate` plays them.
        state = play_state(seats, seed, marianne=marianne)
        outcome = Outcome((None,) * len(bots), (False,) * len(state.history))
    forfeits = outcome.forfeits
    seconds = time.perf_counter() - start
    totals = [score.total for score in state.scores()]
    out = [reason is not None for reason in forfeits]
    record = None
    if with_record:
        extra: dict[str, Any] = {"bots": labels}
        if externals:
            # As the arena writes them: the verdict (placings, forfeiting seats, who decided each
            # action) and, for the author, why each seat forfeited.
            extra[RECORD_FIELD] = record_verdict(totals, out, outcome.stand_in, len(state.history))
            extra["forfeits"] = list(forfeits)
        record = state.to_record(labels, extra)
    result = GameResult(seed, tuple(labels), tuple(totals), state.ranks(), record, round(seconds, 4))
    return Played(
        result,
        forfeits,
        placings(totals, out),
        tuple(state.history),
        tuple(outcome.stand_in),
        tuple(bot.policy for bot in bots),
        marianne,
    )
