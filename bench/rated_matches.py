"""End-to-end rated bot matches per second, this tree against an earlier commit, next to the engine's speed.

End to end = a match queued in PostgreSQL, its task sent through Redis, claimed by a Celery worker,
played with the built-in bots, and its result, seats and multiplayer Elo update committed with the
rating rows locked. Measured per round from the round's first claim (`started_at`, from the database)
to the end of its last play task (a `task_postrun` hook of this script's worker wrapper), once every
message is consumed: a task that finds its match played by another task's batch costs the service
too, even after the last commit.

In process = the same matches (same players, seeds and bots) played by `arena.runner.play` in one
Python process, no database, each round's just before the service plays them (so both see the same
load): the engine each tree runs (this tree's compiled build when it is current, see
scripts/build_engine.py; a tree without one runs the pure Python engine). The ratio printed for each
tree is the service's cost per rated match over the cost of the same game in process.

    python bench/rated_matches.py [--matches 3000] [--rounds 3] [--players 40] [--concurrency 2]
                                  [--bots random] [--seats 2-5] [--baseline 95e61cf | --baseline none]

The baseline commit is extracted with `git archive` into a temporary folder and runs in a virtual
environment of its own holding the baseline's requirements (made once, under var/bench/): this tree's
`.venv` would find this tree's packages wherever the baseline lacks one; it gets this tree's compiled
engine build, which it uses where its engine's sources are the same (else it runs pure Python). Each tree gets its own
database (`<DATABASE_URL name>_bench_a` for this tree, `_bench_b` for the baseline, created when
missing), migrated by that tree's own code, and its own queue; a worker's output goes to
var/bench/, and a worker that dies stops the run with its last lines. The trees run in alternating
rounds (A B A B ...) of `--matches / --rounds` matches each, so that whatever else the machine does
hits both alike. Every run ends with the ledger replay of each tree (the ratings must follow from the ledger).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# A driver runs inside one tree (this one or the baseline's): that tree's code comes first.
_TREE = Path(sys.argv[sys.argv.index("--tree") + 1]) if "--tree" in sys.argv else ROOT
sys.path.insert(0, str(_TREE))

GAME = "part-du-chef"
PLAYER_PREFIX = "bench-"


# -- the worker: a plain `celery worker`, noting when each play task ends -----------------------------

# The play tasks: each match's own (the same name in every tree compared), and a lease of queued work
# (one message for many matches, in trees that have it).
PLAY_TASKS = ("arena.play_match", "arena.play_queued")


def run_worker(argv: list[str]) -> None:
    """`celery worker` with `argv`; every play task that starts and ends counts in Redis (with its end
    time), so that a round lasts until the last message is consumed, the tasks that find their match
    played included."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import redis
    from celery.bin.celery import main as celery_main
    from celery.signals import task_postrun, task_prerun

    key = os.environ["BENCH_TASKS_KEY"]
    client = redis.Redis.from_url(os.environ["REDIS_URL"])

    def started(sender: object = None, **kwargs: object) -> None:
        if getattr(sender, "name", "") in PLAY_TASKS:
            client.incr(f"{key}:started")

    def ended(sender: object = None, **kwargs: object) -> None:
        if getattr(sender, "name", "") in PLAY_TASKS:
            pipe = client.pipeline()
            pipe.incr(f"{key}:count")
            pipe.set(f"{key}:last", repr(time.time()))
            pipe.execute()

    task_prerun.connect(started, weak=False)
    task_postrun.connect(ended, weak=False)
    # As `python -m celery -A config worker ...` (a usage error exits 2 with Celery's own message).
    sys.argv = ["celery", "-A", "config", "worker", *argv]
    sys.exit(celery_main())


# -- the driver: one step in one tree, its result as one JSON line on stdout --------------------------


def _setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def _tables(players: list[Any], matches: int, seats: str, round_number: int) -> list[tuple[list[Any], int]]:
    low, _, high = seats.partition("-")
    sizes = range(int(low), int(high or low) + 1)
    rng = random.Random(f"rated-matches-{round_number}")
    return [(rng.sample(players, rng.choice(sizes)), rng.randrange(2**31)) for _ in range(matches)]


def _create_match() -> Callable[..., Any]:
    """The tree's `create_match`: in arena.matches since the packages were re-cut, in arena.actions before."""
    for name in ("arena.matches", "arena.actions"):
        try:
            found: Callable[..., Any] = importlib.import_module(name).create_match
        except (ImportError, AttributeError):
            continue
        return found
    raise SystemExit(f"no create_match in this tree ({_TREE})")


def _players() -> list[Any]:
    from arena.models import Player

    return list(Player.objects.filter(name__startswith=PLAYER_PREFIX).order_by("id"))


def drive_reset(args: argparse.Namespace) -> dict[str, Any]:
    from django.core.management import call_command
    from django.db import connection

    from arena.models import Player

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE ratings_ratingchange, ratings_rating, arena_arenaentry, arena_matchseat, arena_match CASCADE"
        )
        cursor.execute("SELECT to_regclass('ratings_ratingbucket')")
        if cursor.fetchone()[0] is not None:
            cursor.execute("TRUNCATE ratings_ratingbucket")
    Player.objects.filter(name__startswith=PLAYER_PREFIX).delete()
    for i in range(args.players):
        Player.objects.create(name=f"{PLAYER_PREFIX}{i}", kind="bot", builtin=args.bots)
    return {"players": args.players}


def drive_engine(args: argparse.Namespace) -> dict[str, Any]:
    import games.part_du_chef as package
    from arena import runner

    tables = _tables(_players(), args.matches, args.seats, args.round)
    started = time.perf_counter()
    for seated, seed in tables:
        runner.play(GAME, seated, seed, {})
    seconds = time.perf_counter() - started
    engine = "compiled" if getattr(package, "_build", None) is not None else "pure Python"
    return {"games": len(tables), "seconds": seconds, "engine": engine}


def drive_round(args: argparse.Namespace) -> dict[str, Any]:
    from django.conf import settings
    from django.db.models import Max, Min
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from arena.models import Match

    create_match = _create_match()
    err = Console(stderr=True)
    label = f"{args.label}, round {args.round + 1}"
    ids = []
    with Progress(
        TextColumn(f"{label}: queueing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err
    ) as progress:
        tables = _tables(_players(), args.matches, args.seats, args.round)
        task = progress.add_task("queue", total=len(tables))
        for seated, seed in tables:
            match = create_match(game=GAME, kind="ranked", player_ids=[p.id for p in seated], seed=seed)
            ids.append(match.id)
            progress.advance(task)
    import redis

    tasks_key = f"bench-rated-matches-tasks-{os.getpid()}"
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    client.delete(f"{tasks_key}:count", f"{tasks_key}:last", f"{tasks_key}:started")
    log = open(args.log, "ab")  # noqa: SIM115  (closed below, after the worker)
    worker = subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--worker",
            "--tree",
            str(_TREE),
            "--pool=prefork",
            f"--concurrency={args.concurrency}",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=WARNING",
            f"--hostname=bench-{os.getpid()}@%h",
        ],
        cwd=_TREE,
        env=dict(os.environ, PYTHONPATH=str(_TREE), BENCH_TASKS_KEY=tasks_key),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    rows = Match.objects.filter(pk__in=ids)
    try:
        with Progress(
            TextColumn(f"{label}: rated matches"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err
        ) as progress:
            task = progress.add_task("play", total=len(ids))
            deadline = time.monotonic() + 900
            # A tree that sends each match a message of its own ends a task per match at least.
            # (An older tree may have no arena.claims at all: its matches have messages of their own too.)
            own_messages = importlib.util.find_spec("arena.claims") is None or not hasattr(
                importlib.import_module("arena.claims"), "offer_work"
            )
            quiet = 0
            while True:
                done = rows.filter(status__in=["finished", "failed"]).count()
                progress.update(task, completed=done)
                # Every match over, and every message consumed: each match's own or the offers of work,
                # and any sent again; no play task running (twice in a row: one may be on its way).
                ended = int(client.get(f"{tasks_key}:count") or 0)
                running = int(client.get(f"{tasks_key}:started") or 0) - ended
                settled = (
                    done >= len(ids)
                    and ended >= (len(ids) if own_messages else 1)
                    and running == 0
                    and client.llen(settings.CELERY_TASK_DEFAULT_QUEUE) == 0
                )
                quiet = quiet + 1 if settled else 0
                if quiet >= 2:
                    break
                if worker.poll() is not None:
                    log.flush()
                    tail = Path(args.log).read_text(errors="replace").splitlines()[-25:]
                    raise SystemExit(
                        f"{label}: the worker stopped (exit {worker.returncode}); its last lines ({args.log}):\n"
                        + "\n".join(tail)
                    )
                if time.monotonic() > deadline:
                    raise SystemExit(f"{label}: the worker took too long; its log: {args.log}")
                time.sleep(0.05)
    finally:
        worker.terminate()
        worker.wait(timeout=60)
        log.close()
    span = rows.aggregate(first=Min("started_at"), last=Max("finished_at"))
    # From the first claim to the end of the last play task: the tasks that found their match played
    # by another task's batch cost the service too, even after the last commit.
    last = max(span["last"].timestamp(), float(client.get(f"{tasks_key}:last") or 0))
    client.delete(f"{tasks_key}:count", f"{tasks_key}:last", f"{tasks_key}:started")
    return {
        "matches": len(ids),
        "seconds": last - span["first"].timestamp(),
        "to_last_commit": (span["last"] - span["first"]).total_seconds(),
        "failed": rows.filter(status="failed").count(),
    }


def drive_replay(args: argparse.Namespace) -> dict[str, Any]:
    # Runs in either tree: the baseline (95e61cf) has no verify_ratings, only replay_ledger to (rating, games).
    from ratings import ledger
    from ratings.models import Rating, RatingChange

    verify = getattr(ledger, "verify_ratings", None)
    if verify is not None:
        players = len(verify(GAME))  # raises if the ratings do not follow from the ledger
    else:
        replayed: dict[int, Any] = dict(ledger.replay_ledger(GAME))  # (rating, games) in that tree
        stored = {row.player_id: (row.rating, row.games) for row in Rating.objects.filter(game=GAME)}
        if replayed != stored:
            raise SystemExit(f"{args.label}: the stored ratings differ from the replayed ledger")
        players = len(stored)
    return {"ledger_rows": RatingChange.objects.filter(game=GAME).count(), "players": players}


DRIVERS = {"reset": drive_reset, "engine": drive_engine, "round": drive_round, "replay": drive_replay}


def drive(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--driver", choices=sorted(DRIVERS), required=True)
    parser.add_argument("--tree", required=True)
    parser.add_argument("--label", default="tree")
    parser.add_argument("--matches", type=int, default=0)
    parser.add_argument("--round", type=int, default=0)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--seats", default="2-5")
    parser.add_argument("--log", default=os.devnull, help="the worker's output is appended here")
    args = parser.parse_args(argv)
    _setup_django()
    print(json.dumps(DRIVERS[args.driver](args)))


# -- the comparison -----------------------------------------------------------------------------------


class Tree:
    def __init__(self, label: str, path: Path, python: str, database: str, queue: str, log: Path) -> None:
        self.label, self.path, self.python, self.database, self.queue = label, path, python, database, queue
        self.log = log
        self.matches = 0
        self.seconds = 0.0
        self.to_last_commit = 0.0
        self.failed = 0
        self.engine_games = 0
        self.engine_seconds = 0.0
        self.engine = ""

    def run(self, driver: str, args: argparse.Namespace, **extra: object) -> dict[str, Any]:
        command = [self.python, str(Path(__file__).resolve()), "--driver", driver, "--tree", str(self.path)]
        command += ["--log", str(self.log), "--label", self.label, "--players", str(args.players), "--bots", args.bots]
        command += ["--seats", args.seats, "--concurrency", str(args.concurrency)]
        for key, value in extra.items():
            command += [f"--{key}", str(value)]
        env = dict(
            os.environ,
            DATABASE_URL=self.database,
            ARENA_QUEUE=self.queue,
            ARENA_REQUIRE_SERVICES="1",
            PYTHONPATH=str(self.path),
            DJANGO_SETTINGS_MODULE="config.settings",
        )
        done = subprocess.run(command, cwd=self.path, env=env, stdout=subprocess.PIPE, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"{self.label}: the {driver} step failed (exit {done.returncode})")
        answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        return answer

    @property
    def rate(self) -> float:
        return self.matches / self.seconds

    @property
    def engine_rate(self) -> float:
        return self.engine_games / self.engine_seconds


def share_engine_build(tree: Path) -> None:
    """This tree's compiled engine (scripts/build_engine.py), copied into the baseline's tree: the
    baseline's engine uses it only where its stamp matches the baseline's own engine sources
    (games/part_du_chef/native.py), so two trees whose engines are the same play with the same build,
    and the end-to-end comparison is the service's alone."""
    built = ROOT / "build" / "native"
    if built.is_dir() and not (tree / "build" / "native").exists():
        shutil.copytree(built, tree / "build" / "native")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    # Rounds of 1,000: a round of 200 lasts about a tenth of a second, and then its first claim and its
    # last task's end (two leases' start and finish) are most of what is measured.
    parser.add_argument("--matches", type=int, default=3000, help="rated matches per tree, over all rounds")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds the matches are split into")
    parser.add_argument("--players", type=int, default=40, help="bot players sharing the matches")
    parser.add_argument("--concurrency", type=int, default=2, help="worker processes (prefork pool)")
    parser.add_argument("--bots", default="random", help="built-in engine playing every seat")
    parser.add_argument("--seats", default="2-5", help="table sizes, e.g. 2-5 or 3")
    parser.add_argument("--baseline", default="95e61cf", help="commit to compare with, or 'none'")
    args = parser.parse_args()
    if args.rounds < 1 or args.matches < args.rounds:
        raise SystemExit("--matches must be at least --rounds, and --rounds at least 1")

    # Here, not at the top: a driver runs inside the baseline's tree, which has no bench.trees.
    from bench.trees import baseline_context, baseline_python, database_url, log_path, machine

    per_round = args.matches // args.rounds
    pid = os.getpid()
    with baseline_context(args.baseline) as old:
        trees = [
            Tree(
                "this tree",
                ROOT,
                sys.executable,
                database_url("_bench_a"),
                f"arena-bench-a-{pid}",
                log_path(f"rated-matches-worker-a-{pid}"),
            )
        ]
        if old is not None:
            share_engine_build(old)
            trees.append(
                Tree(
                    f"baseline {args.baseline}",
                    old,
                    baseline_python(old),
                    database_url("_bench_b", fresh=True),
                    f"arena-bench-b-{pid}",
                    log_path(f"rated-matches-worker-b-{pid}"),
                )
            )
        for tree in trees:
            tree.run("reset", args)
        for round_number in range(args.rounds):
            for tree in trees:
                # The same games in process, just before the service plays them: both under the same load.
                found = tree.run("engine", args, matches=per_round, round=round_number)
                tree.engine_games += found["games"]
                tree.engine_seconds += found["seconds"]
                tree.engine = found["engine"]
                print(
                    f"{tree.label}, round {round_number + 1}: in-process engine ({tree.engine}) "
                    f"{found['games'] / found['seconds']:.1f} games/s",
                    file=sys.stderr,
                )
                found = tree.run("round", args, matches=per_round, round=round_number)
                tree.matches += found["matches"]
                tree.seconds += found["seconds"]
                tree.to_last_commit += found["to_last_commit"]
                tree.failed += found["failed"]
                rate = found["matches"] / found["seconds"]
                print(f"{tree.label}, round {round_number + 1}: {rate:.1f} rated matches/s", file=sys.stderr)
        replays = {tree.label: tree.run("replay", args) for tree in trees}

    print(f"machine: {machine()}; {args.rounds} alternating rounds of {per_round} matches per tree\n")
    print(
        "| tree | engine | bots | matches | seats | worker processes | end-to-end rated matches/s "
        "| in-process games/s | ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for tree in trees:
        print(
            f"| {tree.label} | {tree.engine} | {args.bots} | {tree.matches} ({tree.failed} failed) | {args.seats} | "
            f"{args.concurrency} | {tree.rate:.1f} | {tree.engine_rate:.1f} | {tree.engine_rate / tree.rate:.1f}x |"
        )
    print()
    for tree in trees:
        print(
            f"{tree.label}: the service's cost per rated match / the same games in process: "
            f"**{tree.engine_rate / tree.rate:.1f}x** (to the last commit only, leaving out the tasks that "
            f"end after it: {tree.engine_rate * tree.to_last_commit / tree.matches:.1f}x)"
        )
    if len(trees) > 1:
        new, old_tree = trees
        print(
            f"\nthis tree / {old_tree.label}: end to end {new.rate / old_tree.rate:.2f}x, "
            f"in-process engine {new.engine_rate / old_tree.engine_rate:.2f}x"
        )
    for label, replay in replays.items():
        rows, players = replay["ledger_rows"], replay["players"]
        print(f"ledger replay, {label}: {rows} ledger rows, the ratings of {players} players follow")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        run_worker(sys.argv[4:])  # after `--worker --tree PATH`: the tree's path is first on sys.path (above)
    elif "--driver" in sys.argv:
        drive(sys.argv[1:])
    else:
        main()
