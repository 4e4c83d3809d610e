"""Leaderboard page and rank lookup with 1,000,000 rated players, under wrk against gunicorn.

Loads (once) a million bot players with ratings into its own database (`<DATABASE_URL name>_board`),
starts gunicorn on 127.0.0.1, and drives it with wrk (Debian package `wrk`), reporting p50/p99
latency and requests/s for:

* the first leaderboard page (`/api/leaderboards/part-du-chef/`),
* random pages among the first 1,000 (offsets up to 50,000),
* random players' rank and neighbours (`/api/leaderboards/part-du-chef/players/{id}/`).

    python bench/leaderboard.py [--players 1000000] [--seconds 15] [--connections 8] [--workers 3]
"""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GAME = "part-du-chef"


def board_database_url() -> str:
    from config.env import env_str
    from config.services import parse_postgres_url

    target = parse_postgres_url(env_str("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/arena"))
    auth = target.user + (f":{target.password}" if target.password else "")
    return f"postgres://{auth}@{target.host}:{target.port}/{target.name}_board"


def load(players: int) -> tuple[int, int]:
    """Make sure exactly `players` rated bots exist; returns the (min, max) of their ids."""
    from django.core.management import call_command
    from django.db import connection
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from arena.models import Player
    from ratings.models import Rating

    call_command("migrate", verbosity=0)
    from ratings.models import RatingBucket

    if Rating.objects.filter(game=GAME).count() != players or not RatingBucket.objects.exists():
        err = Console(stderr=True)
        with connection.cursor() as cursor:
            cursor.execute(
                "TRUNCATE ratings_ratingbucket, ratings_ratingchange, ratings_rating, "
                "arena_matchseat, arena_match CASCADE"
            )
            cursor.execute("DELETE FROM arena_arenaentry")
            cursor.execute("DELETE FROM arena_player WHERE name LIKE 'board-%%'")
        rng = random.Random(1)
        chunk = 100_000
        with Progress(
            TextColumn("loading rated players"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err
        ) as progress:
            task = progress.add_task("load", total=players)
            raw = connection.connection
            for start in range(0, players, chunk):
                count = min(chunk, players - start)
                names = io.StringIO()
                for i in range(start, start + count):
                    names.write(f"board-{i}\tbot\trandom\t2026-01-01 00:00:00+00\n")
                with raw.cursor() as cur:
                    with cur.copy("COPY arena_player (name, kind, builtin, created_at) FROM STDIN") as copy:
                        copy.write(names.getvalue())
                    cur.execute(
                        "SELECT id FROM arena_player WHERE name LIKE 'board-%%' ORDER BY id DESC LIMIT %s", [count]
                    )
                    ids = [row[0] for row in cur.fetchall()]
                    rows = io.StringIO()
                    for player_id in ids:
                        rating = max(100.0, rng.gauss(1500.0, 250.0))
                        rows.write(
                            f"{player_id}\t{GAME}\tbot\t{rating!r}\t{rng.randrange(1, 300)}\t0\t"
                            "2026-01-01 00:00:00+00\n"
                        )
                    with cur.copy(
                        "COPY ratings_rating (player_id, game, kind, rating, games, provisional_left, updated_at) "
                        "FROM STDIN"
                    ) as copy:
                        copy.write(rows.getvalue())
                raw.commit()
                progress.advance(task, count)
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO ratings_ratingbucket (game, kind, bucket, count) SELECT game, kind, "
                "floor(rating)::integer, count(*) FROM ratings_rating GROUP BY game, kind, floor(rating)::integer"
            )
            cursor.execute("VACUUM ANALYZE arena_player")
            cursor.execute("VACUUM ANALYZE ratings_rating")
    low_high = Player.objects.filter(name__startswith="board-").values_list("id", flat=True)
    return low_high.order_by("id").first() or 0, low_high.order_by("-id").first() or 0


def wrk(url: str, script: str | None, seconds: int, connections: int) -> dict[str, float]:
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "5s"]
    if script:
        command += ["-s", script]
    output = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout

    def latency(label: str) -> float:
        match = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", output, re.MULTILINE)
        if not match:
            raise RuntimeError(f"no {label}% line in wrk output:\n{output}")
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return {"p50": latency("50"), "p99": latency("99"), "rps": rate, "errors": float(errors.group(1)) if errors else 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn worker processes")
    parser.add_argument("--port", type=int, default=8055)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install -y wrk")

    os.environ["DATABASE_URL"] = board_database_url()
    os.environ["ARENA_REQUIRE_SERVICES"] = "1"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    low, high = load(args.players)
    base = f"http://127.0.0.1:{args.port}"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{args.port}",
            "--workers",
            str(args.workers),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=dict(os.environ),
        start_new_session=True,
    )
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{base}/api/leaderboards/{GAME}/", timeout=5).read()
                break
            except OSError:
                time.sleep(0.2)
        with tempfile.TemporaryDirectory() as tmp:
            pages = Path(tmp, "pages.lua")
            pages.write_text(
                f'request = function() return wrk.format("GET", "/api/leaderboards/{GAME}/?page=" '
                ".. math.random(1, 1000)) end\n"
            )
            ranks = Path(tmp, "ranks.lua")
            ranks.write_text(
                f'request = function() return wrk.format("GET", "/api/leaderboards/{GAME}/players/" '
                f'.. math.random({low}, {high}) .. "/") end\n'
            )
            cases = [
                ("leaderboard, first page (50 rows)", f"{base}/api/leaderboards/{GAME}/", None),
                ("leaderboard, random page among the first 1,000", base, str(pages)),
                ("rank + neighbours of a random player", base, str(ranks)),
            ]
            wrk(f"{base}/api/leaderboards/{GAME}/", None, 3, args.connections)  # warm-up
            print(
                f"{args.players:,} rated players; gunicorn {args.workers} sync workers; "
                f"wrk -t2 -c{args.connections} -d{args.seconds}s\n"
            )
            print("| request | p50 ms | p99 ms | requests/s | non-2xx |")
            print("|---|---|---|---|---|")
            for label, url, script in cases:
                result = wrk(url, script, args.seconds, args.connections)
                print(
                    f"| {label} | {result['p50']:.2f} | {result['p99']:.2f} | {result['rps']:.0f} | "
                    f"{result['errors']:.0f} |",
                    flush=True,
                )
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
