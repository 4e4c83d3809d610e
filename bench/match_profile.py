"""Where a rated match's time goes in the service, next to the same game played in process.

Queues `--matches` rated matches of built-in bots (2 to 5 seats among `--players` bot players) and
runs the play task's body as a Celery worker would, in this process: the lease of queued work
(`results.batches.play_queued`, up to `--batch` matches per call) until the queue is empty, or with
`--per-match` the task each match's own message would run (`results.batches.run_matches`, claiming up
to `--batch` matches per call) for each match in turn; once as is and once more
(the same tables queued again) under cProfile; then plays the same games (same players, seeds, bots)
with `arena.runner.play` alone. Prints the service's time per match as a ratio to the game alone, and
the cumulative time of each phase of a match: claiming, loading, playing, committing (with the rating
transaction and the leaderboard index inside it). What a Celery worker adds on top (the broker's
round trip, the task's bookkeeping, several workers competing for the rating rows) is the difference
between this ratio and `bench/rated_matches.py`'s.

    python bench/match_profile.py [--matches 200] [--batch 8] [--per-match] [--players 40] [--seats 2-5]
                                  [--bots random]

Uses its own database (`<DATABASE_URL name>_bench_profile`, created when missing) and queue.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAME = "part-du-chef"

# (label, file ending, function): the phases of a match, as the profile names them.
PHASES = (
    ("the tasks' bodies, all of them", "results/batches.py", "play_queued"),
    ("the tasks' bodies, each match's own message (--per-match)", "results/batches.py", "run_matches"),
    ("a glance at its match (one plain SELECT)", "arena/claims.py", "glance"),
    ("claim and read: one round trip", "arena/claims.py", "claim_and_read"),
    ("lease queued work and read it: one round trip", "arena/claims.py", "claim_queued"),
    ("play the game (arena.runner.play)", "arena/runner.py", "play"),
    ("commit: the whole transaction", "results/commit.py", "commit_results"),
    ("  rating: lock rows, Elo, all the writes (ratings.ledger.rate)", "ratings/ledger.py", "rate"),
    ("  the ledger rows appended (COPY, arena.rows.copy_rows)", "arena/rows.py", "copy_rows"),
    ("  the records written (arena.packed.pack)", "arena/packed.py", "pack"),
    (
        "  Django signals sent (match_committed, and pre/post_init of every model instance)",
        "django/dispatch/dispatcher.py",
        "send",
    ),
    ("  leaderboard index (Redis, on commit)", "ratings/leaderboard/index.py", "apply"),
    ("several statements in one round trip (arena.rows.run_together)", "arena/rows.py", "run_together"),
    ("SQL round trips (psycopg execute)", "psycopg/cursor.py", "execute"),
    ("BEGIN, COMMIT, savepoints", "psycopg/_connection_base.py", "_exec_command"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--seats", default="2-5")
    parser.add_argument("--bots", default="random")
    parser.add_argument("--batch", type=int, default=8, help="matches a task claims at once (ARENA_CLAIM_BATCH)")
    parser.add_argument("--per-match", action="store_true", help="run each match's own task, not leases of work")
    parser.add_argument("--top", type=int, default=25, help="functions listed by their own time")
    args = parser.parse_args()

    from bench.trees import database_url, machine, own_queues

    tag = own_queues("profile")
    os.environ.update(DATABASE_URL=database_url("_bench_profile"), ARENA_REQUIRE_SERVICES="1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    import redis
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    from arena import runner
    from arena.matches import create_match
    from arena.models import Match, Player
    from results.batches import play_queued, run_matches

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE ratings_ratingchange, ratings_rating, arena_arenaentry, arena_matchseat, arena_match CASCADE"
        )
    Player.objects.filter(name__startswith="bench-").delete()
    players = [Player.objects.create(name=f"bench-{i}", kind="bot", builtin=args.bots) for i in range(args.players)]
    low, _, high = args.seats.partition("-")
    rng = random.Random("match-profile")
    tables = [
        (rng.sample(players, rng.randint(int(low), int(high or low))), rng.randrange(2**31))
        for _ in range(args.matches)
    ]

    cpu = [0.0]  # this process's CPU seconds in the last run_all: the rest of its time is waiting

    def run_all(profile: cProfile.Profile | None) -> float:
        """Queue the tables' matches, then run the task's body for each in turn: seconds taken."""
        ids = [
            create_match(game=GAME, kind="ranked", player_ids=[p.id for p in seated], seed=seed).id
            for seated, seed in tables
        ]
        # Nobody consumes this queue: the tasks are run here, in order, instead.
        redis.Redis.from_url(settings.REDIS_URL).delete(tag)
        started = time.perf_counter()
        cpu[0] = time.process_time()
        if profile is not None:
            profile.enable()
        if args.per_match:
            for pk in ids:
                run_matches(pk, extra=args.batch - 1)
        else:
            while play_queued(limit=args.batch) != "not claimed":
                pass
        if profile is not None:
            profile.disable()
        seconds = time.perf_counter() - started
        cpu[0] = time.process_time() - cpu[0]
        if Match.objects.filter(pk__in=ids, status="finished").count() != len(ids):
            raise SystemExit("some matches did not finish")
        return seconds

    # Once as it runs, once under the profiler (which slows the Python side more than the waits).
    service = run_all(None)
    service_cpu = cpu[0]
    profile = cProfile.Profile()
    profiled = run_all(profile)

    started, alone_cpu = time.perf_counter(), time.process_time()
    for seated, seed in tables:
        runner.play(GAME, seated, seed, {})
    alone, alone_cpu = time.perf_counter() - started, time.process_time() - alone_cpu

    stats = pstats.Stats(profile)
    table: dict[tuple[str, int, str], tuple[int, int, float, float, object]] = stats.stats  # type: ignore[attr-defined]  # pstats keeps its table undeclared
    per_match = 1000 / len(tables)
    print(f"machine: {machine()}; {len(tables)} rated matches, {args.seats} seats, {args.bots} bots, one process\n")
    how = "each match's own task" if args.per_match else "leases of queued work"
    print(f"service ({how}, up to {args.batch} match(es) per call): {service * per_match:.2f} ms per match")
    print(
        f"  of which this process's CPU: {service_cpu * per_match:.2f} ms per match (the rest: waiting for "
        "PostgreSQL, Redis, and the machine's other work)"
    )
    print(f"the same games in process (arena.runner.play): {alone * per_match:.2f} ms per match")
    print(f"ratio service / in process: {service / alone:.1f}x")
    print(f"ratio of CPU, this process's in the service / the games' in process: {service_cpu / alone_cpu:.1f}x")
    print(f"under cProfile: {profiled * per_match:.2f} ms per match, the phases below\n")
    print("| phase | calls | cumulative ms per match | share of the task |")
    print("|---|---:|---:|---:|")
    phases = {}
    for label, ending, function in PHASES:
        found = [
            (row[1], row[3]) for (file, _, name), row in table.items() if name == function and file.endswith(ending)
        ]
        phases[label] = (sum(calls for calls, _ in found), sum(seconds for _, seconds in found))
    total = phases[PHASES[0][0]][1] + phases[PHASES[1][0]][1]
    for label, (calls, cumulative) in phases.items():
        share = f"{cumulative / total:.0%}" if total else "-"
        print(f"| {label} | {calls} | {cumulative * per_match:.2f} | {share} |")
    copies = next(phases[label][0] for label, _, function in PHASES if function == "copy_rows")
    trips = phases[PHASES[-2][0]][0] + phases[PHASES[-1][0]][0] + copies
    print(f"\nround trips to PostgreSQL per match: {trips / len(tables):.2f} (statements, COPYs and BEGIN/COMMIT)")
    print(f"\nfunctions by their own time (top {args.top}):\n")
    stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
