#!/usr/bin/env python3
"""The operator's side of scripts/several_hosts.sh: create matches through the API, watch them, check them.

Runs on the "ops" host of that script, against the web host's API and the db host's PostgreSQL
(DATABASE_URL) and Redis (REDIS_URL), like any other machine of the deployment:

    several_hosts.py staff                          # a staff account and its API token (printed)
    several_hosts.py create --api URL --token T --count N
    several_hosts.py cut --other NAME --netns NS    # cut a worker host's link while it holds matches
    several_hosts.py idle --worker NAME             # exits 0 once the worker answers and plays nothing
    several_hosts.py wait-finished --count N --timeout S
    several_hosts.py verify --count N --held IDS    # prints one line per check and "N passed, M failed"

Every subcommand exits non-zero when what it waits for or checks does not hold.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db.models import Count  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from arena.models import Match, MatchSeat  # noqa: E402
from common.task_names import TaskName  # noqa: E402
from config.celery import app  # noqa: E402
from ratings.ledger import Replayed, replay_ledger  # noqa: E402
from ratings.models import RatingChange  # noqa: E402

GAME = "part-du-chef"
BOTS = ("random", "greedy")


def staff(_: argparse.Namespace) -> int:
    user, _created = get_user_model().objects.get_or_create(username="operator", defaults={"is_staff": True})
    token, _created = Token.objects.get_or_create(user=user)
    print(token.key)
    return 0


def _call(api: str, token: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(
        api.rstrip("/") + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json", "Accept": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def create(args: argparse.Namespace) -> int:
    """Ranked (rated) matches of two built-in bots, seats alternating, created through the web host's API."""
    page = _call(args.api, args.token, "GET", "/api/players/?kind=bot")
    ids = {row["name"]: row["id"] for row in page["results"]}
    missing = [name for name in BOTS if name not in ids]
    if missing:
        print(f"FAIL built-in bots missing from the API: {missing}", file=sys.stderr)
        return 1
    created = []
    for index in range(args.count):
        players = [ids[name] for name in (BOTS if index % 2 == 0 else BOTS[::-1])]
        match = _call(
            args.api, args.token, "POST", "/api/matches/", {"game": GAME, "kind": "ranked", "players": players}
        )
        created.append(match["id"])
    print(f"created {len(created)} ranked matches through the API: ids {created[0]}..{created[-1]}")
    return 0


def _plays(worker: str) -> bool:
    """Whether the worker is playing or holds a play task (asked through the broker)."""
    inspect = app.control.inspect(destination=[worker], timeout=2.0, limit=1)
    tasks = [*((inspect.active() or {}).get(worker, [])), *((inspect.reserved() or {}).get(worker, []))]
    # A match is played by its own task or by a lease of queued work.
    return any(task.get("name") in (TaskName.PLAY_MATCH, TaskName.PLAY_QUEUED) for task in tasks)


def idle(args: argparse.Namespace) -> int:
    """Exits 0 once the worker answers and plays nothing (its lost attempts are over)."""
    return 1 if _plays(args.worker) or not app.control.ping(destination=[args.worker], timeout=2.0) else 0


def _running() -> list[tuple[int, int]]:
    return list(Match.objects.filter(status=Match.Status.RUNNING).order_by("pk").values_list("pk", "attempt"))


def cut(args: argparse.Namespace) -> int:
    """Cuts the worker host's link while it holds matches; prints them as id:attempt,...

    The other worker stops taking matches meanwhile (cancel_consumer, as an operator would drain it),
    so that once it plays nothing, every running match is the cut host's: its link is cut, then the
    running matches are read; none (it had just finished) and the link is put back and the wait goes on.
    """
    deadline = time.monotonic() + args.timeout
    # Both workers play for a while first.
    while _counts().get(Match.Status.FINISHED, 0) < args.after:
        if time.monotonic() > deadline:
            print(f"FAIL fewer than {args.after} matches finished within {args.timeout:.0f} s", file=sys.stderr)
            return 1
        time.sleep(0.2)
    queue = str(settings.CELERY_TASK_DEFAULT_QUEUE)
    app.control.cancel_consumer(queue, destination=[args.other], reply=True, timeout=5.0)
    try:
        while time.monotonic() < deadline:
            if _plays(args.other) or not _running():
                time.sleep(0.2)
                continue
            subprocess.run(["ip", "-n", args.netns, "link", "set", args.link, "down"], check=True)
            held = _running()
            if held:
                print(",".join(f"{pk}:{attempt}" for pk, attempt in held))
                return 0
            subprocess.run(["ip", "-n", args.netns, "link", "set", args.link, "up"], check=True)
        print(f"FAIL {args.netns} held no match within {args.timeout:.0f} s", file=sys.stderr)
        return 1
    finally:
        app.control.add_consumer(queue, destination=[args.other], reply=True, timeout=5.0)


def _counts() -> dict[str, int]:
    rows = Match.objects.filter(game=GAME, kind=Match.Kind.RANKED).values("status").annotate(n=Count("id"))
    return {row["status"]: row["n"] for row in rows}


def wait_finished(args: argparse.Namespace) -> int:
    """Polls the database until every match is finished or failed; prints the counts when they change."""
    deadline = time.monotonic() + args.timeout
    last: dict[str, int] = {}
    while True:
        counts = _counts()
        if counts != last:
            print("  " + ", ".join(f"{status} {counts.get(status, 0)}" for status in Match.Status.values), flush=True)
            last = counts
        done = counts.get(Match.Status.FINISHED, 0) + counts.get(Match.Status.FAILED, 0)
        if done >= args.count:
            return 0
        if time.monotonic() > deadline:
            print(f"FAIL only {done} of {args.count} matches ended within {args.timeout:.0f} s", file=sys.stderr)
            return 1
        time.sleep(0.5)


def verify(args: argparse.Namespace) -> int:
    # The matches the cut host held (running at the cut while the other worker played nothing), with
    # their attempt then: they can only finish on a later attempt (lease expired, the sweeper requeued them).
    running_at_cut = dict(
        (int(pk), int(attempt)) for pk, attempt in (item.split(":") for item in args.held.split(",") if item)
    )
    matches = Match.objects.filter(game=GAME, kind=Match.Kind.RANKED)
    finished = matches.filter(status=Match.Status.FINISHED)
    rated = Match.objects.filter(game=GAME, rated=True, status=Match.Status.FINISHED)
    seats = MatchSeat.objects.filter(match__in=rated).count()
    changes = RatingChange.objects.filter(game=GAME)
    per_seat = changes.values("match_id", "player_id").annotate(n=Count("id")).filter(n__gt=1).count()
    later = sorted(
        pk
        for pk, attempt in matches.filter(pk__in=running_at_cut, status=Match.Status.FINISHED).values_list(
            "pk", "attempt"
        )
        if attempt > running_at_cut[pk]
    )
    ledger_error = ""
    replayed: dict[int, Replayed] = {}
    try:
        replayed = replay_ledger(GAME)
    except Exception as exc:  # the check reports any failure of the replay, whatever its kind
        ledger_error = f"{type(exc).__name__}: {exc}"
    games = {pk: state.games for pk, state in replayed.items()}
    seated: dict[int, int] = {}
    for player_id in MatchSeat.objects.filter(match__in=rated).values_list("player_id", flat=True):
        seated[player_id] = seated.get(player_id, 0) + 1
    checks: list[tuple[str, Callable[[], bool], str]] = [
        (f"all {args.count} matches exist", lambda: matches.count() == args.count, f"{matches.count()}"),
        ("every match finished", lambda: finished.count() == args.count, json.dumps(_counts())),
        ("no match failed", lambda: not matches.filter(status=Match.Status.FAILED).exists(), json.dumps(_counts())),
        (
            "every match held by the cut host was finished by another, on a later attempt",
            lambda: bool(running_at_cut) and later == sorted(running_at_cut),
            f"held at the cut (id: attempt) {running_at_cut}, finished on a later attempt {later}",
        ),
        (
            "one rating change per seat of every finished rated match",
            lambda: changes.count() == seats,
            f"{changes.count()} changes, {seats} seats",
        ),
        ("no seat rated twice", lambda: per_seat == 0, f"{per_seat} seats with several changes"),
        ("the ledger replays without a mismatch", lambda: not ledger_error, ledger_error),
        ("the replay counts every seated game once", lambda: games == seated, f"replay {games}, seats {seated}"),
    ]
    print(f"  held by the cut host (id: attempt): {running_at_cut}; finished on a later attempt: {later}")
    passed = failed = 0
    for name, check, detail in checks:
        if check():
            passed += 1
            print(f"  ok    {name}")
        else:
            failed += 1
            print(f"  FAIL  {name}: {detail}")
    print(f"hosts: {passed} passed, {failed} failed")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("staff").set_defaults(run=staff)
    command = commands.add_parser("create")
    command.add_argument("--api", required=True)
    command.add_argument("--token", required=True)
    command.add_argument("--count", type=int, required=True)
    command.set_defaults(run=create)
    command = commands.add_parser("cut")
    command.add_argument("--other", required=True, help="the worker that plays on")
    command.add_argument("--netns", required=True, help="the namespace of the host to cut off")
    command.add_argument("--link", default="eth0")
    command.add_argument("--after", type=int, default=4, help="finished matches before the cut")
    command.add_argument("--timeout", type=float, default=90.0)
    command.set_defaults(run=cut)
    command = commands.add_parser("idle")
    command.add_argument("--worker", required=True)
    command.set_defaults(run=idle)
    command = commands.add_parser("wait-finished")
    command.add_argument("--count", type=int, required=True)
    command.add_argument("--timeout", type=float, required=True)
    command.set_defaults(run=wait_finished)
    command = commands.add_parser("verify")
    command.add_argument("--count", type=int, required=True)
    command.add_argument("--held", default="")
    command.set_defaults(run=verify)
    args = parser.parse_args()
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
