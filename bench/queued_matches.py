"""Play-task deliveries per match with 1,000 queued matches while workers are killed and restarted.

1,000 bot matches are queued (rated, so every result moves the ratings) at a rate above what two
Celery workers play, so a backlog builds up; one of the workers is killed with SIGKILL and restarted
every few seconds, and Celery beat runs the sweepers. Every play-task message published (each match's
own `arena.play_match`, and the offers of queued work, `arena.play_queued`, one for many matches) is counted
(a `before_task_publish` hook in this process, which creates the matches, and in the workers, which
re-send them, increments a bench-only Redis key), and so is every delivery at task start (a
`task_prerun` hook of this script's worker wrapper), duplicates and deliveries that find the match
already taken included. At the end: every match finished, each
rated once (one ledger row per seat) and the ledger replays to the stored ratings.

    python bench/queued_matches.py [--matches 1000] [--rate 30] [--kill-every 5] [--resend 5] [--lease 10]
        [--move-delay 0.01]

Runs on the tree it sits in, so the same script measures an earlier commit checked out elsewhere.
Uses its own database (`<DATABASE_URL name>_bench`), queues and Redis key.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Each match's own play task, and a lease of queued work (one message for many built-in bots' matches).
PLAY_TASKS = ("arena.play_match", "arena.play_queued")


def bench_database_url() -> str:
    from bench.trees import database_url

    return database_url("_bench")


def count_publishes() -> None:
    """Count every play-task message this process publishes (a Redis key shared by the bench's processes)."""
    import redis
    from celery.signals import before_task_publish

    key = os.environ["BENCH_PUBLISHED_KEY"]
    client = redis.Redis.from_url(os.environ["REDIS_URL"])

    def count(sender: object = None, **kwargs: object) -> None:
        if sender in PLAY_TASKS:
            client.incr(key)

    before_task_publish.connect(count, weak=False)


def run_worker(argv: list[str]) -> None:
    """A plain `celery worker`, plus counts of every play-task delivery and publish in Redis."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import redis
    from celery.signals import task_prerun

    from config.celery import app

    key = os.environ["BENCH_DELIVERIES_KEY"]
    client = redis.Redis.from_url(os.environ["REDIS_URL"])

    def count(sender: object = None, **kwargs: object) -> None:
        if getattr(sender, "name", "") in PLAY_TASKS:
            client.incr(key)

    task_prerun.connect(count, weak=False)
    count_publishes()  # the sweeps' resends and the batches' give-backs are sent from workers
    app.worker_main(["worker", *argv])


def start_worker(name: str, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as output:  # the child keeps its own descriptor
        return subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--worker",
                "--pool=prefork",
                "--concurrency=1",
                "--without-gossip",
                "--without-mingle",
                "--loglevel=WARNING",
                f"--hostname={name}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def kill(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=30)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        run_worker(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--players", type=int, default=40, help="bot players sharing the matches")
    parser.add_argument("--kill-every", type=float, default=5.0, help="seconds between two worker kills")
    parser.add_argument("--resend", type=float, default=5.0, help="ARENA_QUEUED_RESEND_SECONDS")
    parser.add_argument("--lease", type=float, default=10.0, help="ARENA_MATCH_LEASE_SECONDS")
    parser.add_argument("--sweep", type=float, default=2.0, help="ARENA_SWEEP_SECONDS")
    parser.add_argument("--rate", type=float, default=30.0, help="matches queued per second")
    parser.add_argument(
        "--move-delay",
        type=float,
        default=0.0,
        help="ARENA_BOT_MOVE_DELAY_SECONDS: slower games, batches outlast their time and give matches back",
    )
    parser.add_argument("--timeout", type=float, default=1200.0)
    args = parser.parse_args()

    from bench.trees import own_queues

    tag = own_queues("queued")
    os.environ.update(
        DATABASE_URL=bench_database_url(),
        ARENA_REQUIRE_SERVICES="1",
        ARENA_QUEUED_RESEND_SECONDS=str(args.resend),
        ARENA_MATCH_LEASE_SECONDS=str(args.lease),
        ARENA_SWEEP_SECONDS=str(args.sweep),
        ARENA_BOT_MOVE_DELAY_SECONDS=str(args.move_delay),
        DATABASE_CONN_MAX_AGE="0",
        BENCH_DELIVERIES_KEY=f"{tag}:deliveries",
        BENCH_PUBLISHED_KEY=f"{tag}:published",
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    import redis
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.db.models import Count
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from arena.matches import create_match
    from arena.models import Match, MatchSeat, Player
    from bench.trees import log_path, stop_if_dead
    from ratings.ledger import verify_ratings
    from ratings.models import RatingChange

    err = Console(stderr=True)
    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE ratings_ratingchange, ratings_rating, arena_arenaentry, arena_matchseat, arena_match CASCADE"
        )
    if "ratings_ratingbucket" in connection.introspection.table_names():
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE ratings_ratingbucket")
    Player.objects.filter(name__startswith="bench-").delete()
    players = [Player.objects.create(name=f"bench-{i}", kind="bot", builtin="random") for i in range(args.players)]
    rng = random.Random(11)
    broker = redis.Redis.from_url(settings.REDIS_URL)
    key = os.environ["BENCH_DELIVERIES_KEY"]
    published_key = os.environ["BENCH_PUBLISHED_KEY"]
    broker.delete(key, published_key)
    count_publishes()  # the matches' first messages are sent from here, on creation

    env = dict(os.environ)
    schedule = Path(tempfile.mkdtemp(prefix="bench-beat-")) / "schedule"
    beat_log, logs = log_path(f"{tag}-beat"), [log_path(f"{tag}-worker-{i}") for i in range(2)]
    with beat_log.open("ab") as output:
        beat = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=WARNING", f"--schedule={schedule}"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    workers = [start_worker(f"{tag}-{i}", env, logs[i]) for i in range(2)]
    kills = 0
    queued = 0
    started = time.monotonic()
    try:
        with Progress(
            TextColumn("matches done"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[extra]}"),
            TimeElapsedColumn(),
            console=err,
        ) as bar:
            task = bar.add_task("play", total=args.matches, extra="")
            next_kill = time.monotonic() + args.kill_every
            while True:
                # Matches arrive faster than two workers play them, so a backlog builds up behind which
                # the sweeps run: the situation in which a queued match used to be re-sent over and over.
                due = min(args.matches, int((time.monotonic() - started) * args.rate) + 1)
                while queued < due:
                    seated = rng.sample(players, rng.choice((2, 3, 4)))
                    create_match(
                        game="part-du-chef",
                        kind="ranked",
                        player_ids=[p.id for p in seated],
                        seed=rng.randrange(2**31),
                    )
                    queued += 1
                done = Match.objects.filter(status__in=["finished", "failed"]).count()
                delivered = int(broker.get(key) or 0)
                backlog = broker.llen(os.environ["ARENA_QUEUE"])
                bar.update(
                    task,
                    completed=done,
                    extra=f"queued {queued}, in the broker {backlog}, deliveries {delivered}, kills {kills}",
                )
                if done >= args.matches:
                    break
                # Only this script kills a worker (and restarts it at once): any other death stops the run.
                stop_if_dead(beat, "celery beat", beat_log)
                for index, worker in enumerate(workers):
                    stop_if_dead(worker, f"worker {index}", logs[index])
                if time.monotonic() - started > args.timeout:
                    raise SystemExit(f"timed out with {done} of {args.matches} matches done")
                if time.monotonic() >= next_kill:
                    victim = kills % len(workers)
                    kill(workers[victim])
                    workers[victim] = start_worker(f"{tag}-{victim}-{kills}", env, logs[victim])
                    kills += 1
                    next_kill = time.monotonic() + args.kill_every
                time.sleep(0.25)
        # Let duplicates still queued or in flight be delivered (and counted) before stopping.
        settle = time.monotonic() + 3 * args.sweep
        while time.monotonic() < settle or broker.llen(os.environ["ARENA_QUEUE"]):
            if time.monotonic() - started > args.timeout:
                break
            time.sleep(0.5)
    finally:
        for process in [*workers, beat]:
            kill(process)
        broker.delete(os.environ["ARENA_QUEUE"], f"{tag}-periodic")
    seconds = time.monotonic() - started
    delivered = int(broker.get(key) or 0)
    published = int(broker.get(published_key) or 0)
    broker.delete(key, published_key)
    failed = Match.objects.filter(status="failed").count()
    finished = Match.objects.filter(status="finished").count()
    seats = MatchSeat.objects.count()
    changes = RatingChange.objects.count()
    per_match = set(RatingChange.objects.values("match_id").annotate(n=Count("id")).values_list("match_id", flat=True))
    verify_ratings("part-du-chef")  # raises if the ratings do not follow from the ledger
    rated_once = changes == seats and len(per_match) == finished
    print(
        "| matches | finished | failed | worker kills | messages published | per match | deliveries | per match"
        " | rated once | s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    print(
        f"| {args.matches} | {finished} | {failed} | {kills} | {published} | {published / args.matches:.2f} | "
        f"{delivered} | {delivered / args.matches:.2f} | {'yes' if rated_once else 'NO'} (ledger replays) "
        f"| {seconds:.0f} |"
    )
    if failed or not rated_once:
        raise SystemExit("some matches failed or were not rated exactly once")


if __name__ == "__main__":
    main()
