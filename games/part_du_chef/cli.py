"""The command line: simulate games between bots, verify and show game records, benchmark, strength ladder.

    python -m games.part_du_chef simulate --players 4 --bots search,greedy,random,random --games 100 --out g.jsonl
    python -m games.part_du_chef verify g.jsonl
    python -m games.part_du_chef show g.jsonl --game 3
    python -m games.part_du_chef bench
    python -m games.part_du_chef ladder --seed 1
    python -m games.part_du_chef compare greedy random --against greedy,random --deals 50

Bot programs and URLs (`mybot.py`, `http://localhost:8080/`) are understood where resolvers are given
to `main` (dependency injection): the `part-du-chef` command gives one from `botclient`.

Every mistake in the input (a bad option, an unknown bot, a missing file, a record that is not
JSON or does not replay) ends with a one-line message naming it and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from . import benchmark, simulation
from .actions import Cut, Swap, Take, action_from_json
from .bots import BOT_NAMES
from .comparison import Comparison, Stopping, compare, format_seeds
from .deck import CHILI, DECK, IS_FINISHER, KIND_NAMES, KIND_OF, PIZZAS, RING
from .errors import RecordError
from .record import discrepancies, replay
from .seating import BotError, BotResolver, NamedBot, Played, UnknownBot, play_lineup, resolve_bot
from .state import MAX_PLAYERS, MIN_PLAYERS, State, portions_of

# Long runs get a progress bar; short ones stay quiet.
_PROGRESS_FROM = 20
# The ladder's default length: ten cycles of its tables, under a minute of wall time on two free cores
# with the compiled engine (docs/bots.md gives 1,000-game figures).
LADDER_GAMES = 120
_CODES = ("Ma", "Re", "4F", "Ve", "Tr", "Ch", "Bu")
_STYLES = ("red", "magenta", "yellow", "green", "bold white", "bright_red", "dim")


class CliError(Exception):
    """A user mistake: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise CliError(message)


def main(argv: Sequence[str] | None = None, resolvers: Sequence[BotResolver] = (), prog: str | None = None) -> int:
    """Run one command; ``resolvers`` add bots beyond the built-in ones (bot programs, URLs...)."""
    parser = _build_parser(resolvers, prog or "python -m games.part_du_chef")
    try:
        args = parser.parse_args(argv)
        args.resolvers = list(resolvers)
        for resolver in resolvers:
            resolver.configure(args)
        status: int = args.handler(args)
        return status
    except (CliError, BotError) as e:
        # BotError: a resolver naming what is wrong with a bot it was given, even mid-run.
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`show ... | head`): stop quietly, and let the exit flush nothing more.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    finally:
        for resolver in resolvers:
            resolver.close()


def parser(
    resolvers: Sequence[BotResolver] = (), prog: str = "python -m games.part_du_chef"
) -> argparse.ArgumentParser:
    """The parser `main` uses: its commands, their options and help (`part-du-chef --help` lists them)."""
    return _build_parser(resolvers, prog)


def _build_parser(resolvers: Sequence[BotResolver], prog: str) -> _Parser:
    parser = _Parser(prog=prog, description="La Part du Chef: simulate, compare, verify, show, bench, ladder.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    kinds = ", ".join(BOT_NAMES) + (", or a bot program (.py, .js, folder, .zip) or URL" if resolvers else "")

    p = commands.add_parser("simulate", help="play games between bots, one record per line")
    p.add_argument("--players", type=int, default=4, help="2 to 5 (default 4)")
    p.add_argument(
        "--bots",
        default="random",
        help=f"one bot for every seat, or one per seat, comma-separated ({kinds})",
    )
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--seed", type=int, default=0, help="game i is dealt from seed + i")
    p.add_argument("--marianne", action="store_true", help="play with La Marianne (every seat eligible)")
    p.add_argument("--out", help="write the records here, one JSON object per line")
    p.add_argument("--playouts", type=int, help="the search bot's playout budget (default: its own)")
    p.set_defaults(handler=_simulate)
    for resolver in resolvers:
        resolver.add_arguments(p)

    p = commands.add_parser("compare", help="is bot A better than bot B? duplicate deals, paired 95%% intervals")
    p.add_argument("a", metavar="A", help=f"the first bot ({kinds})")
    p.add_argument("b", metavar="B", help="the second bot")
    p.add_argument("--against", default="greedy,random", help="the opponents, comma-separated (default greedy,random)")
    p.add_argument(
        "--deals", type=int, default=30, help="at most this many duplicate deals (default 30; it stops once it knows)"
    )
    p.add_argument("--seed", type=int, default=0, help="deal i is dealt from seed + i")
    p.add_argument(
        "--seeds", help="the deals' seeds instead, e.g. 17,18,40 or 100..129 (as a server comparison reports them)"
    )
    p.add_argument("--fixed", action="store_true", help="play every deal, without the sequential stop")
    p.add_argument("--marianne", action="store_true", help="play with La Marianne (every seat eligible)")
    p.add_argument("--playouts", type=int, help="the search bot's playout budget (default: its own)")
    p.set_defaults(handler=_compare)
    for resolver in resolvers:
        resolver.add_arguments(p)

    p = commands.add_parser("verify", help="replay every record of a file and report each discrepancy")
    p.add_argument("file")
    p.set_defaults(handler=_verify)

    p = commands.add_parser("show", help="draw a recorded game: pizzas, cuts, takes, scores")
    p.add_argument("file")
    p.add_argument("--game", type=int, default=1, help="which record of the file, from 1 (default 1)")
    p.set_defaults(handler=_show)

    p = commands.add_parser("bench", help="random-bot games per second, play and scoring, on one core")
    p.add_argument("--games", type=int, help="games per run (default 2000)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--runs", type=int, default=5, help="runs, of which the median is reported (default 5)")
    p.add_argument(
        "--baseline",
        default=str(benchmark.DEFAULT_BASELINE),
        help="the naive engine to measure the ratio against (default: the package's own naive_engine.py)",
    )
    p.add_argument(
        "--think",
        metavar="BOT",
        help="instead, the CPU time one BOT spends per game among random bots (--games defaults to 20)",
    )
    p.add_argument("--opponents", default="random", help="with --think: the other seats' bot (default random)")
    p.set_defaults(handler=_bench)

    p = commands.add_parser("ladder", help="search, greedy and random at four-player tables, with 95%% intervals")
    p.add_argument(
        "--bots",
        default=",".join(simulation.LADDER_BOTS),
        help=f"the three bots of the ladder, comma-separated (default {','.join(simulation.LADDER_BOTS)}; {kinds})",
    )
    p.add_argument(
        "--games",
        type=int,
        default=LADDER_GAMES,
        help=f"games (default {LADDER_GAMES}: under a minute on two cores, compiled; docs use 1000); "
        "the time it will take is printed first",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    p.add_argument("--marianne", action="store_true")
    p.add_argument("--playouts", type=int, help="the search bot's playout budget (default: its own)")
    p.set_defaults(handler=_ladder)
    for resolver in resolvers:
        resolver.add_arguments(p)
    return parser


# -- shared ------------------------------------------------------------------------------------


def _positive(value: int, what: str) -> None:
    if value < 1:
        raise CliError(f"{what} must be at least 1, not {value}")


def _players(value: int) -> None:
    if not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise CliError(f"La Part du Chef is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {value}")


@contextmanager
def _progress(total: int, label: str, *, always: bool = False) -> Iterator[Any]:
    """Progress on stderr for long runs (a no-op callback for short ones): a bar on a terminal, else
    plain lines (a log, CI, a pipe), one every few seconds and one at the end."""
    if total < _PROGRESS_FROM and not always:
        yield lambda: None
        return
    console = Console(stderr=True)
    if not console.is_terminal:
        with _progress_lines(total, label) as advance:
            yield advance
        return
    progress = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    with progress:
        task = progress.add_task(label, total=total)
        yield lambda: progress.advance(task)


# Plain progress lines: at most one this often (seconds), so a log stays readable.
_LINE_EVERY = 5.0


@contextmanager
def _progress_lines(total: int, label: str) -> Iterator[Any]:
    start = time.monotonic()
    done = 0
    last = start

    def line() -> None:
        elapsed = time.monotonic() - start
        left = f", about {elapsed / done * (total - done):.0f} s left" if 0 < done < total else ""
        share = f"{100 * done / total:.0f}%"
        print(f"{label}: {done}/{total} ({share}) in {elapsed:.0f} s{left}", file=sys.stderr, flush=True)

    def advance() -> None:
        nonlocal done, last
        done += 1
        now = time.monotonic()
        if now - last >= _LINE_EVERY and done < total:
            last = now
            line()

    yield advance
    line()


def _read_lines(path: str) -> list[tuple[int, str]]:
    """The non-blank lines of a file with their line numbers, or CliError naming why it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            return [(number, line) for number, line in enumerate(f, start=1) if line.strip()]
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CliError(f"{path} is a directory, not a file of records") from None
    except UnicodeDecodeError:
        raise CliError(f"{path} is not UTF-8 text: records are JSON, one per line") from None
    except OSError as e:
        raise CliError(f"{path}: {e.strerror or e}") from None


def _parse_json(line: str) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as e:
        raise CliError(f"not valid JSON ({e.msg} at column {e.colno})") from None
    except RecursionError:
        raise CliError("not valid JSON (nested too deeply)") from None


def _console() -> Console:
    # Names in records are data: never read as rich markup or emoji codes.
    return Console(highlight=False, markup=False, emoji=False)


# -- simulate ----------------------------------------------------------------------------------


def _resolve(spec: str, args: argparse.Namespace) -> NamedBot:
    try:
        return resolve_bot(spec, args.resolvers, args.playouts)
    except UnknownBot as e:
        raise CliError(str(e)) from None


def _report_forfeits(played: Played, game: int) -> None:
    for seat, reason in enumerate(played.forfeits):
        if reason is not None:
            name = played.result.names[seat]
            print(
                f"game {game} (seed {played.result.seed}): seat {seat} {name} forfeited ({reason}); "
                "greedy played the seat on",
                file=sys.stderr,
            )


def _simulate(args: argparse.Namespace) -> int:
    _players(args.players)
    _positive(args.games, "--games")
    if args.playouts is not None:
        _positive(args.playouts, "--playouts")
    names = [name.strip() for name in args.bots.split(",")]
    if len(names) == 1:
        names = names * args.players
    elif len(names) != args.players:
        raise CliError(f"--bots names {len(names)} bots for {args.players} players: give one name or {args.players}")
    resolved: dict[str, NamedBot] = {}
    for name in names:
        if name not in resolved:
            resolved[name] = _resolve(name, args)
    lineup = [resolved[name] for name in names]
    external = not all(bot.builtin for bot in lineup)
    out = None
    if args.out is not None:
        try:
            out = open(args.out, "w", encoding="utf-8")  # noqa: SIM115 (closed below, after the last game)
        except OSError as e:
            raise CliError(f"cannot write {args.out}: {e.strerror or e}") from None
    results = []
    try:
        with _progress(args.games, "simulate") as advance:
            for game in range(args.games):
                if external:
                    played = play_lineup(lineup, args.seed + game, marianne=args.marianne, with_record=out is not None)
                    _report_forfeits(played, game + 1)
                    result = played.result
                else:
                    result = simulation.play_one(
                        names,
                        args.seed + game,
                        marianne=args.marianne,
                        with_record=out is not None,
                        search_playouts=args.playouts,
                    )
                if out is not None:
                    try:
                        out.write(json.dumps(result.record, separators=(",", ":")) + "\n")
                    except OSError as e:
                        raise CliError(f"cannot write {args.out}: {e.strerror or e}") from None
                results.append(result)
                advance()
    finally:
        if out is not None:
            try:
                out.close()
            except OSError as e:
                raise CliError(f"cannot write {args.out}: {e.strerror or e}") from None
    console = _console()
    where = f", records in {args.out}" if out is not None else ""
    console.print(
        f"{args.games} games of {args.players} players, seeds {args.seed}..{args.seed + args.games - 1}"
        f"{', with La Marianne' if args.marianne else ''}{where}"
    )
    console.print(_summary_table(simulation.summarize(results)))
    return 0


def _summary_table(summaries: Sequence[simulation.BotSummary]) -> Table:
    table = Table(title="Per bot (mean ± 95% confidence interval, over games)")
    table.add_column("bot")
    table.add_column("seats", justify="right")
    table.add_column("mean score", justify="right")
    table.add_column("mean rank", justify="right")
    table.add_column("win rate", justify="right")
    for s in summaries:
        table.add_row(s.name, str(s.seats), s.score.format(1), s.rank.format(2), s.wins.format(1, percent=True))
    return table


# -- compare -----------------------------------------------------------------------------------


def parse_seeds(text: str) -> list[int]:
    """Seeds as a server comparison reports them: comma-separated numbers and ranges A..B (inclusive).

    >>> parse_seeds("17, 18,40..42")
    [17, 18, 40, 41, 42]
    """
    seeds: list[int] = []
    for part in (piece.strip() for piece in text.split(",")):
        if not part:
            continue
        low, sep, high = part.partition("..")
        try:
            first, last = int(low), int(high) if sep else int(low)
        except ValueError:
            raise CliError(f"--seeds: {part!r} is not a seed (a whole number) nor a range A..B") from None
        if first < 0 or last < first or last - first >= 10_000:
            raise CliError(f"--seeds: {part!r} is not a range of 1 to 10000 non-negative seeds")
        seeds.extend(range(first, last + 1))
    if not seeds:
        raise CliError("--seeds: give at least one seed")
    return seeds


def _compare(args: argparse.Namespace) -> int:
    seeds = parse_seeds(args.seeds) if args.seeds is not None else None
    if seeds is not None:
        args.deals = len(seeds)
    _positive(args.deals, "--deals")
    if args.playouts is not None:
        _positive(args.playouts, "--playouts")
    opponents = [name.strip() for name in args.against.split(",") if name.strip()]
    _players(len(opponents) + 1)
    resolved: dict[str, NamedBot] = {}
    for name in [args.a, args.b, *opponents]:
        if name not in resolved:
            resolved[name] = _resolve(name, args)
    a, b = resolved[args.a], resolved[args.b]
    if a.label == b.label:
        # The same bot on both sides is allowed (it measures the noise); label them apart in the table.
        b = replace(b, label=f"{b.label} (B)")
        a = replace(a, label=f"{a.label} (A)")
    against = [resolved[name] for name in opponents]
    players = len(against) + 1
    total = args.deals * players * 2
    games = 0

    with _progress(total, "compare", always=True) as advance:

        def on_game(played: Played) -> None:
            nonlocal games
            games += 1
            _report_forfeits(played, games)
            advance()

        result = compare(
            a,
            b,
            against,
            args.deals,
            args.seed,
            marianne=args.marianne,
            on_game=on_game,
            seeds=seeds,
            stopping=None if args.fixed else Stopping(max_deals=args.deals),
        )
    _print_comparison(result, args, opponents)
    return 0


def _print_comparison(result: Comparison, args: argparse.Namespace, opponents: Sequence[str]) -> None:
    console = _console()
    console.print(
        f"{result.deals} duplicate deals (seeds {format_seeds(result.seeds)}), "
        f"{result.players} players, "
        f"each bot in every seat against {', '.join(opponents)}: {result.deals * result.players} games per bot"
        f"{', with La Marianne' if args.marianne else ''}"
    )
    table = Table(title="Per bot (mean per game ± 95% confidence interval, over deals)")
    table.add_column("bot")
    table.add_column("mean score", justify="right")
    table.add_column("mean placing", justify="right")
    table.add_column("forfeits", justify="right")
    for side in (result.a, result.b):
        table.add_row(side.label, side.score.format(2), side.placing.format(2), f"{side.forfeits} of {side.games}")
    table.add_row(
        "A - B (paired by deal)",
        result.score_diff.format(2),
        result.placing_diff.format(2),
        "",
        style="bold",
    )
    if result.corrected_diff is not None:
        table.add_row("A - B, luck corrected", result.corrected_diff.format(2), "", "", style="bold")
    console.print(table)
    ratio = result.variance_ratio()
    if ratio is not None:
        console.print(
            f"luck correction (baseline {result.baseline}): the corrected difference varies {ratio:.2f}x "
            "less than the plain one over these deals"
        )
    console.print(f"verdict: {result.verdict()}")


# -- verify ------------------------------------------------------------------------------------


def _verify(args: argparse.Namespace) -> int:
    lines = _read_lines(args.file)
    if not lines:
        raise CliError(f"{args.file} holds no records")
    bad = 0
    with _progress(len(lines), "verify") as advance:
        for number, line in lines:
            try:
                problems = discrepancies(_parse_json(line))
            except CliError as e:
                problems = [str(e)]
            for problem in problems:
                print(f"{args.file}:{number}: {problem}")
            bad += bool(problems)
            advance()
    if bad:
        print(f"{bad} of {len(lines)} records do not verify", file=sys.stderr)
        return 2
    print(f"{len(lines)} records verified: every one replays to its recorded chili, scores and ranks")
    return 0


# -- show --------------------------------------------------------------------------------------


def _show(args: argparse.Namespace) -> int:
    lines = _read_lines(args.file)
    if not 1 <= args.game <= len(lines):
        raise CliError(f"{args.file} holds {len(lines)} records: there is no game {args.game}")
    number, line = lines[args.game - 1]
    try:
        record = _parse_json(line)
        final = replay(record)
    except (CliError, RecordError) as e:
        raise CliError(f"{args.file}:{number}: {e}") from None
    _draw(record, final, f"{args.file}, game {args.game}")
    return 0


def _slice_text(sid: int) -> Text:
    kind = KIND_OF[sid]
    label = _CODES[kind] + (str(DECK[sid].olives) if kind < CHILI else "")
    if IS_FINISHER[sid]:
        label += "*"
    return Text(label, style=_STYLES[kind])


def _slices_text(ids: Sequence[int]) -> Text:
    text = Text()
    for i, sid in enumerate(ids):
        if i:
            text.append(" ")
        text.append_text(_slice_text(sid))
    return text or Text("-")


def _swap_text(swap: Swap, owners: dict[int, int]) -> str:
    parts = [
        f"{_CODES[KIND_OF[g]]}#{g} for {_CODES[KIND_OF[t]]}#{t} of seat {owners[t]}"
        for g, t in zip(swap.give, swap.take, strict=True)
    ]
    return "La Marianne: gives " + " and ".join(parts)


def _draw(record: dict[str, Any], final: State, title: str) -> None:
    console = _console()
    players: list[str] = record["players"]
    n = len(players)
    marianne = "on" if final.marianne_enabled else "off"
    console.print(Text(f"{title}: seed {record['seed']}, {n} players, La Marianne {marianne}", style="bold"))
    console.print("Seats: " + ", ".join(f"{seat} {name}" for seat, name in enumerate(players)))
    console.print(
        "Slices: Ma margherita, Re reine, 4F quatre fromages, Ve végétarienne, Tr truffe (digit = olives), "
        "Ch chili, Bu burnt, * double finisher. A ring's position 12 neighbours position 0."
    )
    state = State.new(n, record["seed"], marianne=final.marianne_enabled, marianne_seats=final.marianne_seats)
    actions = [action_from_json(entry) for entry in record["actions"]]
    i = 0
    for pizza in range(PIZZAS):
        ring = state.pizzas[pizza]
        chef = state.chef
        cut = actions[i]
        assert isinstance(cut, Cut)
        console.print()
        console.print(Text(f"Pizza {pizza + 1}: chef seat {chef} ({players[chef]})", style="bold underline"))
        portions = portions_of(ring, cut.cuts)
        portion_of = {}
        for index, portion in enumerate(portions):
            for sid in portion:
                portion_of[sid] = index
        grid = Table(show_header=True, box=None, pad_edge=False, padding=(0, 1))
        grid.add_column("")
        for position in range(RING):
            grid.add_column(("|" if position in cut.cuts else " ") + str(position), justify="left")
        grid.add_row("slice", *[_slice_text(sid) for sid in ring])
        grid.add_row("portion", *[Text(chr(ord("A") + portion_of[sid])) for sid in ring])
        console.print(grid)
        line = f"  cut at {', '.join(map(str, cut.cuts))}: portions " + ", ".join(
            f"{chr(ord('A') + index)} ({len(p)} slice{'s' if len(p) > 1 else ''})" for index, p in enumerate(portions)
        )
        console.print(line)
        if cut.marianne is not None:
            owners = {sid: state.owner[sid] for sid in cut.marianne.take}
            console.print(f"  seat {chef} ({players[chef]}), with the cut: {_swap_text(cut.marianne, owners)}")
        state.apply(cut)
        i += 1
        for _ in range(n):
            take = actions[i]
            assert isinstance(take, Take)
            seat = state.to_act
            assert seat is not None
            slices = portions[take.portion]
            kept = [sid for sid in slices if sid not in take.eat]
            text = Text(f"  seat {seat} ({players[seat]}) takes {chr(ord('A') + take.portion)}: keeps ")
            text.append_text(_slices_text(kept))
            if take.eat:
                text.append(", eats ")
                text.append_text(_slices_text(take.eat))
                text.append(f" (+{sum(DECK[s].olives for s in take.eat)} olives)")
            console.print(text)
            for steal in take.steals:
                console.print(
                    f"    finisher #{steal.finisher} steals {_CODES[KIND_OF[steal.slice]]}#{steal.slice} "
                    f"from seat {steal.victim} ({players[steal.victim]})"
                )
            if take.marianne is not None:
                after = state.clone()
                after.apply(Take(take.portion, take.eat, take.steals))
                owners = {sid: after.owner[sid] for sid in take.marianne.take}
                console.print(f"    {_swap_text(take.marianne, owners)}")
            state.apply(take)
            i += 1

    console.print()
    scores, chilis = final.results()
    ranks = final.ranks()
    table = Table(title="Final scores")
    for column in ("seat", "player", "majority", "olives", "slices", "variety", "burnt", "total", "rank"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for score in scores:
        table.add_row(
            str(score.seat),
            players[score.seat],
            str(score.majority),
            str(score.olives),
            str(score.slices),
            str(score.variety),
            str(score.burnt),
            Text(str(score.total), style="bold"),
            str(ranks[score.seat]),
        )
    console.print(table)
    held = Table(title="Kept at the end (each sort counting the chilis assigned to it)")
    held.add_column("seat", justify="right")
    for code in _CODES:
        held.add_column(code, justify="right")
    assigned = [[0] * len(_CODES) for _ in range(n)]
    for seat, ids in enumerate(final.kept):
        for sid in ids:
            assigned[seat][KIND_OF[sid]] += 1
    for c in chilis:
        assigned[c.seat][c.sort] += 1
    for seat in range(n):
        held.add_row(str(seat), *[str(v) for v in assigned[seat]])
    console.print(held)
    for c in chilis:
        console.print(f"chili #{c.slice} of seat {c.seat} counts as {KIND_NAMES[c.sort]}")


# -- bench -------------------------------------------------------------------------------------


def _bench(args: argparse.Namespace) -> int:
    if args.games is None:
        args.games = 2000 if args.think is None else 20
    _positive(args.games, "--games")
    _positive(args.runs, "--runs")
    _players(args.players)
    if args.think is not None:
        return _think(args)
    benchmark.report(args.games, args.players, args.runs, Path(args.baseline))
    return 0


def _think(args: argparse.Namespace) -> int:
    for name in (args.think, args.opponents):
        if name not in BOT_NAMES:
            raise CliError(f"unknown bot {name!r}: built-in bots are {', '.join(BOT_NAMES)}")
    with _progress(args.games, "think") as advance:
        times = []
        for i in range(args.games):
            times.extend(simulation.think_times(args.think, 1, args.players, seed=i, opponents=args.opponents))
            advance()
    print(
        f"{args.think} among {args.opponents} bots, {args.games} {args.players}-player games: CPU time per game "
        f"median {statistics.median(times):.3f} s, max {max(times):.3f} s, mean {statistics.mean(times):.3f} s"
    )
    return 0


# -- ladder ------------------------------------------------------------------------------------


def _ladder(args: argparse.Namespace) -> int:
    _positive(args.games, "--games")
    _positive(args.workers, "--workers")
    if args.playouts is not None:
        _positive(args.playouts, "--playouts")
    names = [name.strip() for name in args.bots.split(",")]
    if len(names) != 3 or len(set(names)) != 3:
        raise CliError(f"--bots names the ladder's three bots, all different, not {args.bots!r}")
    start = time.perf_counter()
    if tuple(names) == simulation.LADDER_BOTS:
        workers = min(args.workers, os.cpu_count() or 1)

        def estimate(cpu: float) -> None:
            print(
                f"ladder: {args.games} games, about {cpu:.0f} s of CPU: about {cpu / workers:.0f} s on {workers} "
                f"free core{'s' if workers > 1 else ''} (timed on one game of each table)",
                file=sys.stderr,
                flush=True,
            )

        with _progress(args.games, "ladder") as advance:
            results = simulation.ladder(
                args.games,
                args.seed,
                workers=workers,
                marianne=args.marianne,
                search_playouts=args.playouts,
                on_result=lambda _: advance(),
                on_estimate=estimate,
            )
    else:
        results = _ladder_of(names, args)
    seconds = time.perf_counter() - start
    console = _console()
    console.print(
        f"{args.games} four-player games, seeds {args.seed}..{args.seed + args.games - 1}, "
        f"La Marianne {'on' if args.marianne else 'off'}, {seconds:.0f} s"
    )
    console.print(_summary_table(simulation.summarize(results)))
    pairs = simulation.head_to_head(results)
    table = Table(title="Head to head: how often the row bot finishes above the column bot (ties count half)")
    table.add_column("")
    for name in names:
        table.add_column(name, justify="right")
    for row in names:
        table.add_row(row, *["" if row == col else pairs[(row, col)].format(1, percent=True) for col in names])
    console.print(table)
    return 0


def _ladder_of(names: Sequence[str], args: argparse.Namespace) -> list[simulation.GameResult]:
    """The ladder's tables with other bots (bot programs among them): one process, games in order."""
    bots = {name: _resolve(name, args) for name in names}
    lineups = simulation.ladder_lineups(names)
    results = []
    with _progress(args.games, "ladder") as advance:
        for game in range(args.games):
            lineup = [bots[name] for name in lineups[game % len(lineups)]]
            played = play_lineup(lineup, args.seed + game, marianne=args.marianne, with_record=False)
            _report_forfeits(played, game + 1)
            results.append(played.result)
            advance()
    return results
