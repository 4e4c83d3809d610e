"""Time from a lone bot's arena entry to its first finished rated game, with the default settings.

A real Celery worker (concurrency 2) and real Celery beat (the matchmaker's tick every
ARENA_MATCHMAKING_SECONDS) run on queues of this script; nobody else is in the arena. For each table
size the newcomer is a fresh bot of its own account, played by a built-in engine (the sandbox and
validation of an upload are outside this measure: see bench/submitted_matches.py). Baseline, in the
same run: a bot that is already placed (40 rated games) entered with enough placed bots of other
accounts to fill its table at once, so its wait is only the tick and the game itself. A placed bot
entered alone (the house bots join after ARENA_HOUSE_AFTER_SECONDS_BOTS) is measured too.

    python bench/arena_newcomer.py [--sizes 2,4] [--runs 3] [--engine greedy]

Uses its own database (`<DATABASE_URL name>_bench`), queues and Redis keys.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def bench_database_url() -> str:
    from bench.trees import database_url

    return database_url("_bench")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="2,4")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--engine", default="greedy", help="the built-in engine playing the newcomer")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds one game may take to come")
    args = parser.parse_args()

    from bench.trees import own_queues

    tag = own_queues("newcomer")
    os.environ.update(
        DATABASE_URL=bench_database_url(),
        ARENA_REQUIRE_SERVICES="1",
        DATABASE_CONN_MAX_AGE="0",
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    import redis
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection

    from arena.models import ArenaEntry, Match, MatchSeat, Player
    from bench.trees import start_celery, stop, stop_if_dead
    from matchmaking.entries import enter_arena
    from ratings.models import Rating

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE ratings_ratingchange, ratings_rating, arena_arenaentry, arena_matchseat, arena_match CASCADE"
        )
    Player.objects.filter(name__startswith="bench-").delete()
    User.objects.filter(username__startswith="bench-").delete()
    env = dict(os.environ)
    beat, beat_log = start_celery("beat", tag, env)
    worker, worker_log = start_celery("worker", tag, env)
    counter = 0

    def bot(placed: bool) -> Any:
        nonlocal counter
        counter += 1
        owner = User.objects.create_user(f"bench-{counter}")
        player = Player.objects.create(name=f"bench-{counter}", kind="bot", builtin=args.engine, owner=owner)
        if placed:
            Rating.objects.create(player=player, game="part-du-chef", kind="bot", rating=1500.0, games=40)
        return player

    def first_game(player: Any, size: int, company: int, placed: bool) -> float:
        others = [bot(placed=True) for _ in range(company)]
        started = time.monotonic()
        for each in [player, *others]:
            enter_arena(player_id=each.id, game="part-du-chef", table_size=size, entered_by=each.owner)
        while True:
            if MatchSeat.objects.filter(player=player, match__kind="arena", match__status="finished").exists():
                seconds = time.monotonic() - started
                break
            if time.monotonic() - started > args.timeout:
                raise SystemExit(f"no finished arena game for {player.name} after {args.timeout:.0f}s")
            stop_if_dead(worker, "the worker", worker_log)
            stop_if_dead(beat, "celery beat", beat_log)
            time.sleep(0.05)
        ArenaEntry.objects.filter(active=True).update(active=False)
        while Match.objects.filter(status__in=["queued", "running"]).exists():
            time.sleep(0.1)
        return seconds

    rows = []
    try:
        for size in [int(part) for part in args.sizes.split(",")]:
            baseline = [first_game(bot(placed=True), size, size - 1, True) for _ in range(args.runs)]
            newcomer = [first_game(bot(placed=False), size, 0, False) for _ in range(args.runs)]
            lone_placed = [first_game(bot(placed=True), size, 0, True) for _ in range(args.runs)]
            rows.append((size, baseline, newcomer, lone_placed))
    finally:
        stop(worker, timeout_s=20)
        stop(beat, timeout_s=20)
        redis.Redis.from_url(settings.REDIS_URL).delete(tag, f"{tag}-periodic")

    def show(values: list[float]) -> str:
        return f"{statistics.median(values):.1f} (max {max(values):.1f})"

    print(f"engine {args.engine}, {args.runs} runs each, median seconds from entry to a finished rated game")
    print("| table size | full table at once (baseline) | newcomer alone | ratio | placed bot alone | ratio |")
    print("|---|---|---|---|---|---|")
    for size, baseline, newcomer, lone in rows:
        base = statistics.median(baseline)
        print(
            f"| {size} | {show(baseline)} | {show(newcomer)} | {statistics.median(newcomer) / base:.1f}x "
            f"| {show(lone)} | {statistics.median(lone) / base:.1f}x |"
        )


if __name__ == "__main__":
    main()
