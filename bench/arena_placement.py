"""Placement in the bots' arena: how near its level a new bot's rating is after 10 and 30 rated games.

The house ladder (random, greedy, search-fast, search) first plays rated games among itself until
its ratings settle (`--warmup` rounds of every pair). Then bots of known strength — the built-in
engines themselves, entered under new names by one account (so they never meet each other) — enter
the arena at 2-player tables and play through the real matchmaker (`matchmaker.tick`) and
match core (`arena.run_match`), in this process. A newcomer's error is the distance between
its rating and the rating of the house bot of the same engine at that moment. Baseline, in the same
run: the error at entry (every newcomer starts at 1500).

    python bench/arena_placement.py [--warmup 20] [--repeats 3] [--checkpoints 10,30]

Uses its own database (`<DATABASE_URL name>_bench`).
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def bench_database_url() -> str:
    from bench.trees import database_url

    return database_url("_bench")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--warmup", type=int, default=20, help="rounds of every house pair before the newcomers")
    parser.add_argument("--repeats", type=int, default=3, help="newcomers per engine")
    parser.add_argument(
        "--checkpoints", default="10,30", help="rated games after which a newcomer's error is read, ascending"
    )
    args = parser.parse_args()
    try:
        checkpoints = tuple(int(n) for n in args.checkpoints.split(","))
    except ValueError:
        parser.error(f"--checkpoints: whole numbers separated by commas, not {args.checkpoints!r}")
    if not checkpoints or list(checkpoints) != sorted(set(checkpoints)) or checkpoints[0] < 1:
        parser.error("--checkpoints: positive game counts in ascending order, e.g. 10,30")

    from bench.trees import own_queues

    os.environ.update(DATABASE_URL=bench_database_url(), ARENA_REQUIRE_SERVICES="1")
    own_queues("placement")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from arena.matches import create_match
    from arena.models import ArenaEntry, Match, Player
    from matchmaking import matchmaker
    from matchmaking.entries import enter_arena
    from matchmaking.house import house_players
    from matchmaking.house import ladder as house_ladder
    from ratings.models import Rating
    from results.batches import run_match

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE ratings_ratingchange, ratings_rating, arena_arenaentry, arena_matchseat, arena_match CASCADE"
        )
    Player.objects.filter(name__startswith="bench-").delete()
    User.objects.filter(username__startswith="bench-").delete()
    game = "part-du-chef"
    house = {bot.builtin: bot for bot in house_players(1) if bot.name == bot.builtin}
    ladder = [name for name in house_ladder() if name in house]
    for _ in range(args.warmup):
        for a, b in itertools.permutations(ladder, 2):
            match = create_match(
                game=game, kind=Match.Kind.RANKED, player_ids=[house[a].id, house[b].id], dispatch=False
            )
            run_match(match.id)

    def rating(player: Player) -> float:
        row = Rating.objects.filter(player=player, game=game).values_list("rating", flat=True).first()
        return 1500.0 if row is None else float(row)

    print("house ratings after the warm-up:", ", ".join(f"{name} {rating(house[name]):.0f}" for name in ladder))
    owner = User.objects.create_user("bench-owner")
    errors: dict[int, list[float]] = {0: [], **{n: [] for n in checkpoints}}
    per_engine: dict[str, dict[int, list[float]]] = {name: {n: [] for n in (0, *checkpoints)} for name in ladder}
    opponents: dict[str, list[str]] = {name: [] for name in ladder}
    for repeat in range(args.repeats):
        newcomers = {
            name: Player.objects.create(name=f"bench-{name}-{repeat}", kind="bot", builtin=name, owner=owner)
            for name in ladder
        }
        for name, player in newcomers.items():
            error = abs(1500.0 - rating(house[name]))
            errors[0].append(error)
            per_engine[name][0].append(error)
            enter_arena(player_id=player.id, game=game, table_size=2, entered_by=owner)
        played = dict.fromkeys(ladder, 0)
        while min(played.values()) < max(checkpoints):
            # An hour ahead: every bot past its placement has waited long enough for the house bots.
            for match_id in matchmaker.tick(timezone.now() + timedelta(hours=1)):
                run_match(match_id)
                seats = list(Match.objects.get(pk=match_id).seats.select_related("player"))
                for name, player in newcomers.items():
                    if any(seat.player_id == player.id for seat in seats):
                        played[name] += 1
                        if repeat == 0 and played[name] <= checkpoints[0]:
                            opponents[name] += [s.player.builtin for s in seats if s.player_id != player.id]
                        if played[name] in checkpoints:
                            error = abs(rating(player) - rating(house[name]))
                            errors[played[name]].append(error)
                            per_engine[name][played[name]].append(error)
        ArenaEntry.objects.filter(active=True).update(active=False)

    for name in ladder:
        print(f"first {checkpoints[0]} opponents of new {name}: {', '.join(opponents[name])}")
    print(f"{args.repeats} newcomers per engine; mean |newcomer - house bot of its engine| in rating points")
    print(
        "| engine | at entry (baseline) | "
        + " | ".join(f"after {n} games | ratio" for n in checkpoints)
        + " |\n|---|---|"
        + "---|---|" * len(checkpoints)
    )
    for name, values in [*per_engine.items(), ("all", errors)]:
        base = statistics.mean(values[0])
        cells = " | ".join(
            f"{statistics.mean(values[n]):.0f} | {statistics.mean(values[n]) / base:.2f}" for n in checkpoints
        )
        print(f"| {name} | {base:.0f} | {cells} |")


if __name__ == "__main__":
    main()
