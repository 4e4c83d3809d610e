"""Whole matches with a submitted bot through the match runner, next to the same games in process.

The same decision code (the Python starter kit) plays seat 0 of the same 2-player games against the
built-in `greedy` bot, three ways, interleaved game by game:

* in process: the kit's functions called directly (no protocol, no process);
* uploaded: a submitted bot (the kit uploaded as one .py file, validated) played by
  `arena.runner.play` as a match task plays it: the active version looked up in the database, its
  bundle taken from the unpack cache, its sandboxed process started for the first game and kept for
  the next ones (the kit answers `ready` with `more_games`: docs/bot-protocol.md), protocol v1 for
  every decision, `end`, the seat log assembled;
* uploaded, one process per game: the same kit answering plain `ready`, so that each game starts
  a sandboxed process and tears it down (what every uploaded bot paid before `more_games`);
* hosted: the same kit submitted as an HTTP bot (a local server, allowed by
  ARENA_BOT_ALLOW_PRIVATE_URLS for this run), through the same runner path.

Also timed: validation of each submitted version (its friendly games against the built-in bots), and
unpacking a .zip upload the first time (in the sandbox) against the cached directory afterwards.

    python bench/submitted_matches.py [--games 60] [--markdown]

Run as root with bubblewrap installed; uses its own database (`<DATABASE_URL name>_bench_bots`) and
queues (`bench-bots-<pid>`, removed at the end).
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
KIT = ROOT / "starter-kits" / "python" / "bot.py"


def bench_database_url() -> str:
    from bench.trees import database_url

    return database_url("_bench_bots")


def load_kit() -> Any:
    spec = importlib.util.spec_from_file_location("starter_kit", KIT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class InProcessKit:
    """The kit's decisions as a built-in bot would make them: a function call per decision."""

    def __init__(self, kit: Any) -> None:
        self.kit = kit

    def act(self, observation: Any) -> Any:
        from games.part_du_chef import action_from_json

        obs = observation.to_json()
        reply = self.kit.choose_cut(obs) if obs["phase"] == "cut" else self.kit.choose_take(obs)
        return action_from_json(reply)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per mode")
    parser.add_argument("--unpacks", type=int, default=10, help="cold and warm unpacks of a zip upload")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()

    from bench.trees import own_queues

    os.environ["DATABASE_URL"] = bench_database_url()
    # Each bot's validation task, sent on commit, goes to this run's queue (the run validates by itself).
    own_queues("bots")
    os.environ["ARENA_REQUIRE_SERVICES"] = "1"
    os.environ["ARENA_BOT_ALLOW_PRIVATE_URLS"] = "1"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from rich.console import Console
    from rich.progress import Progress

    from arena import runner
    from arena.models import Match, Player
    from botclient.match import play_with_sessions
    from games.part_du_chef import State
    from games.part_du_chef.bots import get_bot
    from submissions import actions, bundles
    from submissions.models import SubmittedBot
    from submissions.seats import get_sandbox

    err = Console(stderr=True)
    call_command("migrate", verbosity=0)
    get_sandbox().check()
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "bench" / "bot_roundtrip.py"), "--serve"], stdout=subprocess.PIPE, text=True
    )
    try:
        port = int(server.stdout.readline())  # type: ignore[union-attr]  # stdout=PIPE, never None
        owner, _ = User.objects.get_or_create(username="bench-owner")
        # An earlier run's bots and their validation games: this run starts from none.
        Match.objects.filter(seats__player__name__startswith="bench-kit-").delete()
        SubmittedBot.objects.filter(player__name__startswith="bench-kit-").delete()
        Player.objects.filter(name__startswith="bench-kit-").delete()
        validation: dict[str, float] = {}
        players = {}
        one_game = KIT.read_text().replace('"more_games": True', '"more_games": False')
        assert one_game != KIT.read_text(), "the kit no longer asks for more games: update this benchmark"
        for label, source in (
            ("uploaded", {"upload": ("bot.py", KIT.read_bytes())}),
            ("uploaded-once", {"upload": ("bot.py", one_game.encode())}),
            ("hosted", {"endpoint": f"http://127.0.0.1:{port}/"}),
        ):
            bot = actions.create_bot(owner=owner, name=f"bench-kit-{label}", game="part-du-chef", **source)
            began = time.perf_counter()
            outcome = actions.run_validation(bot.versions.get().id)
            validation[label] = time.perf_counter() - began
            if outcome != "active":
                raise SystemExit(f"{label} kit was not validated: {bot.versions.get().reason}")
            players[label] = Player.objects.get(pk=bot.pk)
        greedy = Player.objects.get(name="greedy")
        kit = load_kit()
        timings: dict[str, list[float]] = {
            "in process": [],
            "uploaded (sandbox, kept process)": [],
            "uploaded (sandbox, process per game)": [],
            "hosted (HTTP)": [],
        }
        decisions: list[int] = []
        with Progress(transient=True, console=err) as progress:
            task = progress.add_task("games", total=args.games + args.unpacks)
            for seed in range(args.games):
                state = State.new(2, seed)
                began = time.perf_counter()
                play_with_sessions(state, [InProcessKit(kit), get_bot("greedy", seed=seed)])
                timings["in process"].append((time.perf_counter() - began) * 1000)
                decisions.append(sum(1 for action in state.to_record(["a", "b"])["actions"] if action["seat"] == 0))
                submitted = (
                    ("uploaded (sandbox, kept process)", players["uploaded"]),
                    ("uploaded (sandbox, process per game)", players["uploaded-once"]),
                    ("hosted (HTTP)", players["hosted"]),
                )
                for label, player in submitted:
                    began = time.perf_counter()
                    played = runner.play("part-du-chef", [player, greedy], seed, {})
                    timings[label].append((time.perf_counter() - began) * 1000)
                    if any(played.forfeited):
                        raise SystemExit(f"{label}: forfeited: {played.seat_logs[0].forfeit_reason}")
                progress.advance(task)
            zipped = io.BytesIO()
            with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as zf:
                zf.writestr("main.py", KIT.read_text())
            data = zipped.getvalue()
            cold, warm = [], []
            for index in range(args.unpacks):
                with tempfile.TemporaryDirectory() as cache:
                    settings.ARENA_BOT_CACHE_DIR = cache
                    began = time.perf_counter()
                    bundles.materialize("bot.zip", data, f"bench{index}", get_sandbox())
                    cold.append((time.perf_counter() - began) * 1000)
                    began = time.perf_counter()
                    bundles.materialize("bot.zip", data, f"bench{index}", get_sandbox())
                    warm.append((time.perf_counter() - began) * 1000)
                progress.advance(task)
    finally:
        server.kill()
        server.wait()

    base = statistics.median(timings["in process"])
    per_game_decisions = statistics.median(decisions)
    rows = []
    for label, values in timings.items():
        median = statistics.median(values)
        rows.append((label, median, max(values), median - base, (median - base) / per_game_decisions))
    if args.markdown:
        print("| seat 0 played by | median ms per game | max ms | overhead per game | per decision of the bot |")
        print("|---|---:|---:|---:|---:|")
        for label, median, high, over, per in rows:
            print(f"| {label} | {median:.1f} | {high:.1f} | {over:+.1f} ms | {per:+.2f} ms |")
        print()
        print(
            f"{args.games} 2-player games per mode against `greedy`; the kit made {per_game_decisions:.0f} decisions "
            f"per game (median). Validation (2 friendly games each): uploaded {validation['uploaded']:.2f} s "
            f"(process per game {validation['uploaded-once']:.2f} s), "
            f"hosted {validation['hosted']:.2f} s. Zip upload unpacked in the sandbox: median "
            f"{statistics.median(cold):.1f} ms the first time, {statistics.median(warm):.3f} ms from the cache."
        )
    else:
        for label, median, high, over, per in rows:
            print(f"{label:38s} median {median:8.1f} ms/game  max {high:8.1f}  {over:+8.1f} ms  {per:+6.2f} ms/move")
        unpacked = f"unpack cold {statistics.median(cold):.1f} ms, warm {statistics.median(warm):.3f} ms"
        print(f"validation: {validation}; {unpacked}")


if __name__ == "__main__":
    main()
