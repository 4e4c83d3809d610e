"""Leaderboard page and rank lookup with 1,000,000 rated players: this tree against an earlier commit.

Loads (once) a million bot players with ratings into its own database (`<DATABASE_URL name>_board`)
and builds this tree's leaderboard index in Redis. Extracts the baseline commit (`--baseline`,
default 95e61cf) into a temporary folder with `git archive`, serves both trees with gunicorn on two
ports against the same database, checks they answer the same, and drives them with wrk (Debian
package `wrk`) in alternating rounds (this tree, the baseline, this tree, ...) so that whatever else
the machine does hits both alike. Reports p50/p99 latency and requests/s of both, and their ratios,
for:

* the first leaderboard page (`/api/leaderboards/part-du-chef/`),
* random pages among the first 1,000 (offsets up to 50,000),
* random players' rank and neighbours (`/api/leaderboards/part-du-chef/players/{id}/`).

    python bench/leaderboard.py [--players 1000000] [--seconds 10] [--rounds 10] [--connections 4]
                                [--workers 3] [--rate 0] [--baseline 95e61cf | --baseline none]

`--seconds` is the wrk time per request kind and tree, split into `--rounds` runs; p50 and p99 are
the medians of the rounds' figures, requests/s the total requests over the total time. `--rate`
paces each wrk connection (it waits connections / rate between its requests), so that latency is
measured at about that load rather than at saturation; a server slower than the pace answers at its
own rate, which the requests/s column shows (wrk waits for each answer: no open-loop schedule).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GAME = "part-du-chef"

from bench.trees import baseline_context, baseline_python, database_url, machine, own_queues  # noqa: E402  (after the path is set)


def board_database_url() -> str:
    return database_url("_board")


def load(players: int) -> tuple[int, int]:
    """Make sure exactly `players` rated bots exist; returns the (min, max) of their ids."""
    from django.core.management import call_command
    from django.db import connection
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from arena.models import Player
    from common.skeleton import skeleton
    from ratings.models import Rating

    call_command("migrate", verbosity=0)
    from ratings.models import RatingBucket

    reloaded = Rating.objects.filter(game=GAME).count() != players or not RatingBucket.objects.exists()
    if reloaded:
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
                    names.write(f"board-{i}\t{skeleton(f'board-{i}')}\tbot\trandom\t2026-01-01 00:00:00+00\n")
                with raw.cursor() as cur:
                    with cur.copy("COPY arena_player (name, name_key, kind, builtin, created_at) FROM STDIN") as copy:
                        copy.write(names.getvalue())
                    cur.execute(
                        "SELECT id FROM arena_player WHERE name LIKE 'board-%%' ORDER BY id DESC LIMIT %s", [count]
                    )
                    ids = [row[0] for row in cur.fetchall()]
                    rows = io.StringIO()
                    for player_id in ids:
                        rating = max(100.0, rng.gauss(1500.0, 250.0))
                        deviation = rng.uniform(30.0, 350.0)
                        rows.write(
                            f"{player_id}\t{GAME}\tbot\t{rating!r}\t{deviation!r}\t{rng.randrange(1, 300)}\t0\t"
                            "2026-01-01 00:00:00+00\t2026-01-01 00:00:00+00\n"
                        )
                    with cur.copy(
                        "COPY ratings_rating (player_id, game, kind, rating, deviation, games, provisional_left, "
                        "rated_at, updated_at) FROM STDIN"
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
    from ratings.leaderboard import index

    # A reloaded table has new ids: an index left in Redis by an earlier load (its database dropped and made
    # again, say) may have the same size and still be stale.
    if reloaded or index.size(GAME, None) != players or index.page_lines(GAME, None, 0, 1) is None:
        err = Console(stderr=True)
        with Progress(
            TextColumn("indexing ratings in Redis"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err
        ) as progress:
            task = progress.add_task("index", total=players)
            index.rebuild(GAME, lambda done: progress.advance(task, done))
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

    done = re.search(r"(\d+) requests in ([\d.]+)(us|ms|s|m)", output)
    if not done:
        raise RuntimeError(f"no request count in wrk output:\n{output}")
    scale = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}[done.group(3)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return {
        "p50": latency("50"),
        "p99": latency("99"),
        "requests": float(done.group(1)),
        "elapsed": float(done.group(2)) * scale,
        "errors": float(errors.group(1)) if errors else 0,
    }


@contextmanager
def serving(tree: Path, port: int, workers: int) -> Iterator[subprocess.Popen[bytes]]:
    # The baseline serves from a virtual environment of its own: this tree's .venv would lend it this tree's packages.
    python = sys.executable if tree == ROOT else baseline_python(tree)
    server = subprocess.Popen(
        [
            python,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--chdir",
            str(tree),
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--log-level",
            "warning",
        ],
        cwd=tree,
        env=dict(os.environ, PYTHONPATH=str(tree)),
        start_new_session=True,
    )
    try:
        for _ in range(300):
            if server.poll() is not None:
                raise SystemExit(f"gunicorn for {tree} exited with {server.returncode}")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/leaderboards/{GAME}/", timeout=5).read()
                break
            except OSError:
                time.sleep(0.2)
        yield server
    finally:
        server.terminate()
        server.wait(timeout=30)


# Fields whose meaning changed since 95e61cf: `provisional` follows the rating's deviation now, not a count of games.
CHANGED_FIELDS = frozenset({"provisional"})


def shared(first: Any, second: Any) -> tuple[Any, Any]:
    """The parts of two answers that both trees give: a field only one has (added since) is left out, and so
    are CHANGED_FIELDS; lists are compared item by item."""
    if isinstance(first, dict) and isinstance(second, dict):
        keys = sorted((first.keys() & second.keys()) - CHANGED_FIELDS)
        pairs = [shared(first[key], second[key]) for key in keys]
        return dict(zip(keys, [a for a, _ in pairs], strict=True)), dict(zip(keys, [b for _, b in pairs], strict=True))
    if isinstance(first, list) and isinstance(second, list) and len(first) == len(second):
        pairs = [shared(a, b) for a, b in zip(first, second, strict=True)]
        return [a for a, _ in pairs], [b for _, b in pairs]
    return first, second


def same_answers(ports: list[int], low: int, high: int) -> int:
    """Both trees give the same JSON (links compared without their port, fields of one tree only left out);
    returns how many were compared."""
    rng = random.Random(7)
    paths = [f"/api/leaderboards/{GAME}/", f"/api/leaderboards/{GAME}/?page=2&page_size=7"]
    paths += [f"/api/leaderboards/{GAME}/?page={rng.randint(1, 1000)}" for _ in range(5)]
    paths += [f"/api/leaderboards/{GAME}/?kind=bot&page={rng.randint(1, 1000)}" for _ in range(3)]
    paths += [f"/api/leaderboards/{GAME}/players/{rng.randint(low, high)}/" for _ in range(10)]
    for path in paths:
        bodies = []
        for port in ports:
            raw = urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10).read().decode()
            bodies.append(json.loads(raw.replace(f"127.0.0.1:{port}", "HOST")))
        for body in bodies[1:]:
            mine, theirs = shared(bodies[0], body)
            if mine != theirs:
                raise SystemExit(f"the trees answer {path} differently:\n{mine}\n{theirs}")
    return len(paths)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=int, default=10, help="wrk seconds per request kind and tree")
    parser.add_argument("--rounds", type=int, default=10, help="alternating runs the seconds are split into")
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="requests/s per tree to pace wrk at (each connection waits connections/rate between its requests; "
        "0: as fast as it answers). The requests/s column says what was reached",
    )
    parser.add_argument("--workers", type=int, default=3, help="gunicorn worker processes per tree")
    parser.add_argument("--port", type=int, default=8055, help="this tree's port; the baseline's is the next")
    parser.add_argument("--baseline", default="95e61cf", help="commit to compare with, or 'none'")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install -y wrk")
    if args.rounds < 1 or args.seconds < args.rounds:
        raise SystemExit("--seconds must be at least --rounds (each round runs wrk for whole seconds)")

    os.environ["DATABASE_URL"] = board_database_url()
    os.environ["ARENA_REQUIRE_SERVICES"] = "1"
    own_queues("board")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    low, high = load(args.players)
    err = Console(stderr=True)
    with tempfile.TemporaryDirectory() as tmp:
        trees: list[tuple[str, Path, int]] = [("this tree", ROOT, args.port)]
        with baseline_context(args.baseline) as old:
            if old is not None:
                trees.append((f"baseline {args.baseline}", old, args.port + 1))
            with serving_all(trees, args.workers):
                compared = same_answers([port for _, _, port in trees], low, high)
                err.print(f"{compared} requests answered alike by {len(trees)} tree(s)")
                # wrk's delay(): milliseconds a connection waits before its next request, to pace at --rate.
                pace = f"delay = function() return {args.connections * 1000 / args.rate:.3f} end\n" if args.rate else ""
                first = Path(tmp, "first.lua")
                first.write_text(
                    f'request = function() return wrk.format("GET", "/api/leaderboards/{GAME}/") end\n{pace}'
                )
                pages = Path(tmp, "pages.lua")
                pages.write_text(
                    f'request = function() return wrk.format("GET", "/api/leaderboards/{GAME}/?page=" '
                    f".. math.random(1, 1000)) end\n{pace}"
                )
                ranks = Path(tmp, "ranks.lua")
                ranks.write_text(
                    f'request = function() return wrk.format("GET", "/api/leaderboards/{GAME}/players/" '
                    f'.. math.random({low}, {high}) .. "/") end\n{pace}'
                )
                cases = [
                    ("leaderboard, first page (50 rows)", "/", str(first)),
                    ("leaderboard, random page among the first 1,000", "/", str(pages)),
                    ("rank + neighbours of a random player", "/", str(ranks)),
                ]
                for _, _, port in trees:
                    wrk(f"http://127.0.0.1:{port}/api/leaderboards/{GAME}/", None, 2, args.connections)  # warm-up
                per_round = args.seconds // args.rounds
                results: dict[tuple[str, str], list[dict[str, float]]] = {}
                with Progress(
                    TextColumn("{task.description}"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TimeElapsedColumn(),
                    console=err,
                ) as progress:
                    task = progress.add_task("wrk rounds", total=len(cases) * args.rounds * len(trees))
                    for label, path, script in cases:
                        for round_number in range(args.rounds):
                            for name, _, port in trees:
                                progress.update(task, description=f"{label}: {name}, round {round_number + 1}")
                                run = wrk(f"http://127.0.0.1:{port}{path}", script, per_round, args.connections)
                                results.setdefault((label, name), []).append(run)
                                progress.advance(task)
    print(
        f"{args.players:,} rated players; gunicorn {args.workers} sync workers per tree; wrk -t2 "
        f"-c{args.connections}{f', paced at {args.rate:.0f} requests/s' if args.rate else ''}, "
        f"{args.rounds} alternating rounds of {per_round} s per request kind and tree; "
        f"machine: {machine()}\n"
    )
    print("| request | tree | p50 ms | p99 ms | requests/s | non-2xx |")
    print("|---|---|---|---|---|---|")
    summary: dict[tuple[str, str], tuple[float, float, float]] = {}
    for label, _, _ in cases:
        for name, _, _ in trees:
            runs = results[(label, name)]
            p50 = statistics.median(run["p50"] for run in runs)
            p99 = statistics.median(run["p99"] for run in runs)
            rate = sum(run["requests"] for run in runs) / sum(run["elapsed"] for run in runs)
            summary[(label, name)] = (p50, p99, rate)
            errors = sum(run["errors"] for run in runs)
            print(f"| {label} | {name} | {p50:.2f} | {p99:.2f} | {rate:.0f} | {errors:.0f} |")
    if len(trees) > 1:
        new, old_name = trees[0][0], trees[1][0]
        print("\n| request | p99 this / baseline | requests/s this / baseline |")
        print("|---|---|---|")
        for label, _, _ in cases:
            _, new_p99, new_rate = summary[(label, new)]
            _, old_p99, old_rate = summary[(label, old_name)]
            print(f"| {label} | {new_p99 / old_p99:.2f} | {new_rate / old_rate:.2f}x |")


@contextmanager
def serving_all(trees: list[tuple[str, Path, int]], workers: int) -> Iterator[None]:
    if not trees:
        yield
        return
    (_, tree, port), rest = trees[0], trees[1:]
    with serving(tree, port, workers), serving_all(rest, workers):
        yield


if __name__ == "__main__":
    main()
