"""Server time of the web pages and the play endpoints with 1,000,000 rated players.

Uses the leaderboard benchmark's database (`<DATABASE_URL name>_board`, loaded once with a million
rated players by bench/leaderboard.py's loader), plays one rated 3-player table to the end (the
house plays every seat) and opens one more, then times each page in process with Django's test
client: middleware, queries (PostgreSQL), cache (Redis) and template rendering, no network. Prints
median, p90 and p99 milliseconds and the queries per request as a Markdown table.

    python bench/web_pages.py [--players 1000000] [--requests 200]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "home page (baseline)"
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=200, help="requests per page")
    args = parser.parse_args()

    from bench.leaderboard import board_database_url
    from bench.trees import own_queues

    os.environ["DATABASE_URL"] = board_database_url()
    own_queues("pages")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils.translation import override
    from rich.console import Console
    from rich.progress import Progress

    from arena.models import Match, Player
    from arena.people import person_of
    from bench.leaderboard import load
    from play.engine import create_live_match, play_turn
    from play.models import LiveGame

    settings.ALLOWED_HOSTS = ["*"]
    low, high = load(args.players)
    rng = random.Random(7)
    bots = list(Player.objects.filter(id__in=[rng.randint(low, high) for _ in range(3)]))
    finished = create_live_match(game="part-du-chef", kind=Match.Kind.ARENA, players=bots, seed=29)
    while (game := LiveGame.objects.get(pk=finished.pk)).to_act is not None:
        play_turn(finished.id, game.turn)
    person = person_of(User.objects.get_or_create(username="bench-person")[0])
    running = create_live_match(
        game="part-du-chef", kind=Match.Kind.FRIENDLY, players=[person, Player.objects.get(name="greedy")], seed=3
    )
    client = Client()
    assert person.owner is not None  # the person made just above has an account
    client.force_login(person.owner)
    anonymous = Client()

    def random_player() -> str:
        return f"/players/{rng.randint(low, high)}/"

    def rebuilt_replay() -> str:
        cache.clear()
        return f"/matches/{finished.id}/"

    pages: list[tuple[str, Client, Callable[[], str]]] = [
        # The baseline of the ratios: the home page, which reads nothing but the session.
        (BASELINE, anonymous, lambda: "/"),
        ("leaderboard, page 1", anonymous, lambda: "/leaderboard/part-du-chef/"),
        (
            "leaderboard, random page of the first 1,000",
            anonymous,
            lambda: f"/leaderboard/part-du-chef/?page={rng.randint(1, 1000)}",
        ),
        ("leaderboard, bots only, page 2", anonymous, lambda: "/leaderboard/part-du-chef/?kind=bot&page=2"),
        ("leaderboard, name search", anonymous, lambda: f"/leaderboard/part-du-chef/?q=board-{rng.randint(1, 99999)}"),
        ("leaderboard, name search matching 1,000,000", anonymous, lambda: "/leaderboard/part-du-chef/?q=board"),
        ("profile of a random player (rank uncached)", anonymous, random_player),
        ("profile of a player with history", anonymous, lambda: f"/players/{bots[0].id}/"),
        ("match replay (frames cached)", anonymous, lambda: f"/matches/{finished.id}/"),
        ("match replay (frames rebuilt)", anonymous, rebuilt_replay),
        ("play page of the seated person", client, lambda: f"/play/{running.id}/"),
        ("table panel with a whole game's log", anonymous, lambda: f"/play/{finished.id}/panel/"),
        ("state endpoint (JSON)", client, lambda: f"/api/matches/{running.id}/state/"),
    ]
    rows = []
    err = Console(stderr=True)
    with override("en"), Progress(console=err) as progress:
        task = progress.add_task("pages", total=len(pages) * args.requests)
        for name, who, url in pages:
            who.get(url())  # warm-up: connections, templates
            times = []
            queries = 0
            for _ in range(args.requests):
                target = url()
                with CaptureQueriesContext(connection) as captured:
                    start = time.perf_counter()
                    response = who.get(target)
                    times.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200, (target, response.status_code)
                queries = max(queries, len(captured))
                progress.advance(task)
            times.sort()
            rows.append(
                (
                    name,
                    statistics.median(times),
                    times[int(0.9 * len(times)) - 1],
                    times[max(0, int(0.99 * len(times)) - 1)],
                    queries,
                )
            )
    print(f"Players rated: {args.players:,}; {args.requests} requests per page.\n")
    # Ratios to the baseline measured in the same run: what a page costs beyond serving any page.
    base = next(median for name, median, *_ in rows if name == BASELINE)
    print("| page | median ms | p90 ms | p99 ms | median / baseline | queries (max) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, median, p90, p99, queries in rows:
        print(f"| {name} | {median:.1f} | {p90:.1f} | {p99:.1f} | {median / base:.1f} | {queries} |")


if __name__ == "__main__":
    main()
