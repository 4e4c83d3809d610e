"""End-to-end rated bot matches per second, next to the rules engine's own speed for the same bots.

End to end = a match queued in PostgreSQL, its task sent through Redis, claimed by a Celery worker
(conditional UPDATE), played with the built-in bots, and its result, seats and multiplayer Elo
update committed in one transaction with the rating rows locked. Measured from the first claim
(`started_at`) to the last commit (`finished_at`), taken from the database.

In process = the same matches (same players, seeds and bots) played by `arena.runner.play` in one
Python process, no database.

    python bench/rated_matches.py [--matches 1500] [--players 40] [--concurrency 2] [--bots random]

Uses its own database (`<DATABASE_URL name>_bench`) and queue, so it never touches live data.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def bench_database_url() -> str:
    from config.env import env_str
    from config.services import parse_postgres_url

    url = env_str("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/arena")
    target = parse_postgres_url(url)
    auth = target.user + (f":{target.password}" if target.password else "")
    return f"postgres://{auth}@{target.host}:{target.port}/{target.name}_bench"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=1500)
    parser.add_argument("--players", type=int, default=40, help="bot players sharing the matches")
    parser.add_argument("--concurrency", type=int, default=2, help="worker processes (prefork pool)")
    parser.add_argument("--bots", default="random", help="built-in engine playing every seat")
    parser.add_argument("--seats", default="2-5", help="table sizes, e.g. 2-5 or 3")
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = bench_database_url()
    os.environ["ARENA_QUEUE"] = f"arena-bench-{os.getpid()}"
    os.environ["ARENA_REQUIRE_SERVICES"] = "1"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from arena import actions, runner
    from arena.models import Match, Player
    from ratings.ledger import replay_ledger

    err = Console(stderr=True)
    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE ratings_ratingchange, ratings_rating, arena_arenaentry, arena_matchseat, arena_match CASCADE"
        )
    Player.objects.filter(name__startswith="bench-").delete()
    players = [Player.objects.create(name=f"bench-{i}", kind="bot", builtin=args.bots) for i in range(args.players)]
    low, _, high = args.seats.partition("-")
    sizes = range(int(low), int(high or low) + 1)
    rng = random.Random(7)
    tables = [(rng.sample(players, rng.choice(sizes)), rng.randrange(2**31)) for _ in range(args.matches)]

    # In process: the same games, one process, no database, no broker.
    started = time.perf_counter()
    for seated, seed in tables:
        runner.play("part-du-chef", seated, seed, {})
    engine_rate = len(tables) / (time.perf_counter() - started)
    err.print(f"in-process engine: {engine_rate:.1f} games/s")

    with Progress(
        TextColumn("queueing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err
    ) as progress:
        task = progress.add_task("queue", total=len(tables))
        for seated, seed in tables:
            actions.create_match(game="part-du-chef", kind="ranked", player_ids=[p.id for p in seated], seed=seed)
            progress.advance(task)

    env = dict(os.environ)
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=prefork",
            f"--concurrency={args.concurrency}",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=WARNING",
            f"--hostname=bench-{os.getpid()}@%h",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        with Progress(
            TextColumn("rated matches"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err
        ) as progress:
            task = progress.add_task("play", total=len(tables))
            deadline = time.monotonic() + 900
            while True:
                done = Match.objects.filter(status__in=["finished", "failed"]).count()
                progress.update(task, completed=done)
                if done >= len(tables):
                    break
                if time.monotonic() > deadline or worker.poll() is not None:
                    raise SystemExit("the worker stopped or took too long")
                time.sleep(0.25)
    finally:
        worker.terminate()
        worker.wait(timeout=60)

    from django.db.models import Max, Min

    span = Match.objects.aggregate(first=Min("started_at"), last=Max("finished_at"))
    seconds = (span["last"] - span["first"]).total_seconds()
    failed = Match.objects.filter(status="failed").count()
    end_to_end = len(tables) / seconds
    replay_ledger("part-du-chef")  # raises if the ratings do not follow from the ledger

    print("| bots | matches | seats | worker processes | end-to-end rated matches/s | in-process games/s | ratio |")
    print("|---|---|---|---|---|---|---|")
    print(
        f"| {args.bots} | {len(tables)} ({failed} failed) | {args.seats} | {args.concurrency} | "
        f"{end_to_end:.1f} | {engine_rate:.1f} | {engine_rate / end_to_end:.1f}x |"
    )


if __name__ == "__main__":
    main()
