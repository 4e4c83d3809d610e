"""A crowd on the whole site: people browsing, people playing, spectators on event streams, API clients,
and the bots' arena, all at once against the stack as `make run` starts it.

Starts the stack exactly as scripts/run.sh does, its command lines read from that script (gunicorn
`config.asgi:application` with `config.uvicorn_worker.ArenaUvicornWorker` workers, a Celery worker,
Celery beat), on its own database
(`<DATABASE_URL name>_crowd`, made when missing), its own queues (carrying this process's id) and
so its own Redis keys, or attaches to a running one with `--url` (then the seeding adds to that
stack's DATABASE_URL and its throttles apply). Seeds bots with rated history (finished matches with
records), people with tokens and sessions, staff API clients, and enters the bots in the arena, which
beat's matchmaker keeps playing in the background. Then runs the crowd with Locust
(bench/crowd_users.py, in a process of its own: Locust patches the standard library for gevent, and
that process never imports Django):

* baseline: one user of each kind alone, one kind after the other (`--baseline-seconds` in all): the
  uncrowded latency of every route, and the arena's rated matches/s with nobody else;
* `--mode crowd`: `--users` users for `--seconds`;
* `--mode ramp`: the crowd at each of `--steps` users for `--step-seconds`, stopping at the first step
  whose p99 reaches `--p99-limit` ms or that has any error; the last good step is the answer;
* `--mode outage`: `--users` users for `--seconds`, and from a third of the way in, for
  `--outage-seconds`, every backend of the stack's database killed (pg_terminate_backend) every
  0.25 s. Reports the answers given meanwhile by status (500 or 503), then checks nothing was lost:
  every match an Idempotency-Key got a 2xx for exists exactly once, and the ratings replay from the
  ledger (`ratings.ledger.verify_ratings`).

Every figure is also a ratio to the baseline of the same invocation, with os.getloadavg() beside. The
peak of PostgreSQL connections of the stack's database is sampled from pg_stat_activity every 0.5 s;
a step is stopped early if it passes `--max-connections` (the machine's PostgreSQL is shared).

The stack it starts has the API throttles raised (ARENA_THROTTLE_MATCH_CREATE, _PLAY_ACTION,
_TABLE, _RESIGN, _ARENA_ENTRY set to 1000000/hour): a handful of accounts stand for the whole crowd.

    python bench/crowd.py [--mode crowd|ramp|outage] [--users 20] [--seconds 30] [--steps 10,20,40,80]
        [--step-seconds 20] [--baseline-seconds 24] [--outage-seconds 10] [--port 0] [--url URL]
        [--markdown PATH] [--json PATH]

As a plain locustfile against a stack seeded by a run of this script (it writes the seed JSON under
var/bench/ and prints its path): CROWD_SEED=var/bench/crowd-<pid>-seed.json locust -f bench/crowd.py
--host http://127.0.0.1:8000 --headless -u 20 -t 30s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import secrets
import shlex
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

if __name__ != "__main__" and "locust" in sys.modules:
    # Loaded by `locust -f bench/crowd.py`: the users are the crowd's (Locust has patched for gevent already).
    # Imported otherwise (a test reading run_sh_commands), nothing of Locust is loaded.
    from bench.crowd_users import ApiClient, Browser, Person, Spectator  # noqa: F401

GAME = "part-du-chef"
KINDS = ["browser", "person", "spectator", "api"]
# Every rate limit the crowd would hit with its few accounts (config/settings.py DEFAULT_THROTTLE_RATES).
UNTHROTTLED = {
    f"ARENA_THROTTLE_{scope}": "1000000/hour"
    for scope in ("MATCH_CREATE", "PLAY_ACTION", "TABLE", "RESIGN", "ARENA_ENTRY")
}
# Seeded rows are named with this prefix.
PREFIX = "crowd-"


# -- drivers: the steps that need Django, each in a process of its own, answering one JSON line ----------


def _setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def drive_seed(args: argparse.Namespace) -> dict[str, Any]:
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from arena.builtin import ensure_builtin_bots
    from arena.matches import create_match
    from arena.models import Match, Player
    from common import service_redis
    from common.skeleton import skeleton
    from matchmaking.entries import enter_arena
    from play.models import FriendlyTable
    from play.tables import open_table
    from ratings.leaderboard import index
    from results.batches import run_matches

    call_command("migrate", verbosity=0)
    if args.reset:
        kept = {"django_migrations", "django_content_type", "auth_permission"}
        every = [name for name in connection.introspection.table_names() if name not in kept]
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE " + ", ".join(connection.ops.quote_name(t) for t in every) + " CASCADE")
        # And this database's Redis keys (cache, leaderboard index): a database made again numbers its matches
        # from 1, and a replay cached for an earlier run's match 5 would be served for the new match 5.
        service = service_redis.client()
        if service is not None:
            for key in service.scan_iter(match=f"{service_redis.namespace()}:*", count=1000):
                service.delete(key)
    builtin = ensure_builtin_bots(Player)
    bots = []
    for i in range(args.bots):
        bot, _ = Player.objects.get_or_create(name=f"{PREFIX}bot-{i}", defaults={"kind": "bot", "builtin": "random"})
        bots.append(bot)
    password = make_password(secrets.token_urlsafe(16))  # hashed once: nobody signs in with it

    def accounts(kind: str, count: int, staff: bool) -> list[User]:
        names = [f"{PREFIX}{kind}-{i}" for i in range(count)]
        have = set(User.objects.filter(username__in=names).values_list("username", flat=True))
        User.objects.bulk_create(
            [User(username=name, password=password, is_staff=staff) for name in names if name not in have]
        )
        users = list(User.objects.filter(username__in=names).order_by("id"))
        Token.objects.bulk_create([Token(key=Token.generate_key(), user=u) for u in users], ignore_conflicts=True)
        return users

    people = accounts("person", args.people, staff=False)
    known = set(Player.objects.filter(owner__in=people, kind="human").values_list("owner_id", flat=True))
    Player.objects.bulk_create(
        [
            Player(name=u.username, name_key=skeleton(u.username), kind="human", owner=u)
            for u in people
            if u.pk not in known
        ]
    )
    sessions = []
    for user in people:
        session = SessionStore()
        session["_auth_user_id"] = str(user.pk)
        session["_auth_user_backend"] = "accounts.backends.ThrottledModelBackend"
        session["_auth_user_hash"] = user.get_session_auth_hash()
        session.create()
        sessions.append(session.session_key)
    clients = accounts("api", args.api_clients, staff=True)
    tokens = dict(Token.objects.filter(user__in=[*people, *clients]).values_list("user_id", "key"))

    # Rated history: matches played and committed here, as a worker would (claimed in batches).
    played = Match.objects.filter(status="finished", seats__player__in=bots).distinct()
    missing = max(0, args.history - played.count())
    rng = random.Random(5)
    ids = [
        create_match(
            game=GAME, kind="ranked", player_ids=[p.id for p in rng.sample(bots, rng.randint(2, 4))], dispatch=False
        ).id
        for _ in range(missing)
    ]
    for match_id in ids:
        run_matches(match_id)
    for bot in bots:
        enter_arena(player_id=bot.id, game=GAME, table_size=2 + bot.id % 2, entered_by=None)
    # A few tables running from the start, people to act: spectators find a stream even with no person playing.
    guests = [bot.id for bot in builtin if bot.builtin == "random"] + [bot.id for bot in bots[:4]]
    tables: list[int] = []
    for user in people[: args.tables]:
        mine = FriendlyTable.objects.filter(host__owner=user, status="started", match__status="running").first()
        table = mine or open_table(user, GAME, [rng.choice(guests)])
        if table.match_id is not None:  # started at once: a bot guest accepts by itself
            tables.append(table.match_id)
    index.rebuild(GAME, lambda done: None)
    return {
        "bots": [bot.id for bot in bots],
        "guests": guests,
        "tables": tables,
        "people": [{"token": tokens[u.pk], "session": s} for u, s in zip(people, sessions, strict=True)],
        "api": [tokens[u.pk] for u in clients],
        "matches": list(played.order_by("-id").values_list("id", flat=True)[:500]),
    }


def drive_verify(args: argparse.Namespace) -> dict[str, Any]:
    """Nothing lost: every key answered 2xx names a match that exists, with that key's stored answer; the API
    clients' matches are exactly their stored keys (one match per key); the ratings replay from the ledger."""
    from django.contrib.auth.models import User

    from arena.models import Match
    from idempotency.models import IdempotencyKey
    from ratings.ledger import LedgerMismatch, verify_ratings
    from ratings.models import RatingChange

    reported: dict[str, list[Any]] = json.loads(Path(args.keys).read_text())
    clients = list(User.objects.filter(username__startswith=f"{PREFIX}api-").values_list("id", flat=True))
    stored = {
        row.key: json.loads(bytes(row.body)).get("id")
        for row in IdempotencyKey.objects.filter(scope__in=[f"user:{pk}" for pk in clients])
    }
    answered = {key: match for key, (status, match) in reported.items() if 200 <= status < 300}
    exists = set(Match.objects.filter(pk__in=[m for m in answered.values() if m]).values_list("id", flat=True))
    created = Match.objects.filter(created_by__in=clients, kind="ranked").count()
    try:
        players = len(verify_ratings(GAME))
        ratings = (
            f"the ratings of {players} players follow from {RatingChange.objects.filter(game=GAME).count()} ledger rows"
        )
        ratings_ok = True
    except LedgerMismatch as exc:
        ratings, ratings_ok = f"MISMATCH: {exc}", False
    missing = [key for key, match in answered.items() if match not in exists]
    different = [key for key, match in answered.items() if stored.get(key) != match]
    return {
        "keys_sent": len(reported),
        "keys_2xx": len(answered),
        "missing": len(missing),
        "answer_differs_from_stored": len(different),
        "stored_keys": len(stored),
        "api_matches": created,
        "exactly_once": not missing and not different and created == len(stored),
        "ratings": ratings,
        "ratings_ok": ratings_ok,
    }


DRIVERS = {"seed": drive_seed, "verify": drive_verify}


def drive(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--driver", choices=sorted(DRIVERS), required=True)
    parser.add_argument("--bots", type=int, default=24)
    parser.add_argument("--people", type=int, default=150)
    parser.add_argument("--api-clients", type=int, default=20)
    parser.add_argument("--history", type=int, default=120)
    parser.add_argument("--tables", type=int, default=4, help="tables running from the start")
    parser.add_argument("--reset", action="store_true")
    parser.add_argument("--keys", default="")
    args = parser.parse_args(argv)
    _setup_django()
    print(json.dumps(DRIVERS[args.driver](args)))


def generate(argv: list[str]) -> None:
    """The load generator's process: Locust (gevent) and the users, no Django."""
    from bench.crowd_users import generate as run_plan

    run_plan(json.loads(Path(argv[0]).read_text()))
    if "django" in sys.modules:  # it would have been imported after gevent's patching, and load the generator
        raise SystemExit("the load generator imported Django")


# -- the stack, as scripts/run.sh starts it ---------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


RUN_SH = ROOT / "scripts" / "run.sh"


def run_sh_commands(port: int, gunicorn_log: Path, schedule: Path) -> dict[str, list[str]]:
    """The worker's, beat's and gunicorn's command lines read from scripts/run.sh, its variables given their
    defaults there (or the exported values, as run.sh would take them), on loopback at `port`, logging to
    `gunicorn_log` and keeping beat's schedule at `schedule`: the stack is started as `make run` starts it."""
    text = re.sub(r"\\\n\s*", " ", RUN_SH.read_text())  # continued lines joined
    defaults: dict[str, str] = dict(re.findall(r'^\s*(\w+)="\$\{\1:-([^}]*)\}"', text, re.MULTILINE))
    values = {name: os.environ.get(name, default) for name, default in defaults.items()}
    values.update(VENV=str(Path(sys.executable).parent.parent), HOST="127.0.0.1", PORT=str(port))

    def expand(match: re.Match[str]) -> str:
        name, default = match.group(1) or match.group(3), match.group(2)
        if name in values:
            return values[name]
        if default is None:
            raise SystemExit(f"bench/crowd.py cannot read ${name} in scripts/run.sh's commands: update run_sh_commands")
        return default

    def command(marker: str) -> list[str]:
        found = [line for line in text.splitlines() if line.strip().startswith(marker)]
        if len(found) != 1:
            raise SystemExit(f"scripts/run.sh has {len(found)} lines starting {marker!r}: update bench/crowd.py")
        line = re.sub(r"\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)", expand, found[0].split(" #")[0])
        words = shlex.split(line)
        return words[:-1] if words[-1] == "&" else words

    replaced = {"var/gunicorn.log": str(gunicorn_log), "var/celerybeat-schedule": str(schedule)}
    return {
        # `supervise NAME LOG PROGRAM ARGS...` (scripts/supervise.sh): the program and its arguments.
        "celery worker": command("supervise worker")[3:],
        "celery beat": [replaced.get(word, word) for word in command("supervise beat")[3:]],
        "gunicorn": [replaced.get(word, word) for word in command('"$VENV/bin/gunicorn"')],
    }


@contextmanager
def stack(env: dict[str, str], port: int, tag: str) -> Iterator[list[tuple[str, subprocess.Popen[bytes], Path]]]:
    """gunicorn, a Celery worker and beat with the commands and options of scripts/run.sh; logs in var/bench/."""
    from bench.trees import log_path, stop

    gunicorn_log = log_path(f"{tag}-gunicorn")
    schedule = Path(tempfile.mkdtemp(prefix="bench-crowd-beat-")) / "celerybeat-schedule"
    commands = run_sh_commands(port, gunicorn_log, schedule)
    processes: list[tuple[str, subprocess.Popen[bytes], Path]] = []
    try:
        for label, command in commands.items():
            log = gunicorn_log if label == "gunicorn" else log_path(f"{tag}-{label.replace(' ', '-')}")
            with log.open("ab") as output:
                process = subprocess.Popen(
                    command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
                )
            processes.append((label, process, log))
        wait_until_serving(f"http://127.0.0.1:{port}", processes)
        yield processes
    finally:
        for _, process, _ in reversed(processes):
            stop(process)


def wait_until_serving(url: str, processes: list[tuple[str, subprocess.Popen[bytes], Path]]) -> None:
    from bench.trees import stop_if_dead

    deadline = time.monotonic() + 120
    while True:
        for label, process, log in processes:
            stop_if_dead(process, label, log)
        try:
            with urllib.request.urlopen(f"{url}/api/games/", timeout=5) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise SystemExit(f"the stack did not answer {url}/api/games/ within 120 s")
        time.sleep(0.3)


# -- what the orchestrator watches: connections, rated matches, the outage --------------------------------


class Watch:
    """pg_stat_activity of the stack's database every 0.5 s, on a connection to another database."""

    def __init__(self, server_url: str, database: str) -> None:
        self.server_url, self.database = server_url, database
        self.samples: list[tuple[float, int]] = []
        self.limit: int | None = None
        self.over_limit = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Watch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        import psycopg

        with psycopg.connect(self.server_url, autocommit=True) as conn:
            while not self._stop.wait(0.5):
                row = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                    [self.database],
                ).fetchone()
                count = int(row[0]) if row else 0
                self.samples.append((time.time(), count))
                if self.limit is not None and count > self.limit:
                    self.over_limit.set()

    def peak(self, start: float, end: float) -> int:
        return max((n for t, n in self.samples if start <= t <= end), default=0)


def rated_matches(database_url: str, start: float, end: float) -> int:
    """Rated matches committed between two moments; retried for a while when the shared server is full."""
    import psycopg

    for attempt in range(30):
        try:
            with psycopg.connect(database_url, autocommit=True) as conn:
                row = conn.execute(
                    "SELECT count(*) FROM arena_match WHERE rated AND status = 'finished' "
                    "AND finished_at >= to_timestamp(%s) AND finished_at < to_timestamp(%s)",
                    [start, end],
                ).fetchone()
            return int(row[0]) if row else 0
        except psycopg.OperationalError:
            if attempt == 29:
                raise
            time.sleep(1.0)
    raise AssertionError("unreachable")


class Outage:
    """Kills every backend of the stack's database every 0.25 s for `seconds` (after `delay`)."""

    def __init__(self, server_url: str, database: str, delay: float, seconds: float) -> None:
        self.server_url, self.database, self.delay, self.seconds = server_url, database, delay, seconds
        self.start = self.end = 0.0
        self.killed = 0
        self._thread = threading.Thread(target=self._run, daemon=True)

    def begin(self) -> None:
        self._thread.start()

    def join(self) -> None:
        if self._thread.ident is not None:  # begun: the crowd started
            self._thread.join(timeout=self.delay + self.seconds + 30)

    def _run(self) -> None:
        import psycopg

        time.sleep(self.delay)
        with psycopg.connect(self.server_url, autocommit=True) as conn:
            self.start = time.time()
            while time.time() < self.start + self.seconds:
                rows = conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = %s AND pid <> pg_backend_pid()",
                    [self.database],
                ).fetchall()
                self.killed += sum(1 for (done,) in rows if done)
                time.sleep(0.25)
            self.end = time.time()


# -- the orchestrator ------------------------------------------------------------------------------------


def run_plan(
    plan: dict[str, Any],
    env: dict[str, str],
    watch: Watch,
    processes: list[tuple[str, subprocess.Popen[bytes], Path]],
    outage: Outage | None = None,
) -> list[dict[str, Any]]:
    """The generator's process over `plan`; its steps' results as they come. Stops a step (and the plan) when the
    stack's connections pass the watch's limit or a process of the stack dies."""
    from bench.trees import stop_if_dead

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as spec:
        json.dump(plan, spec)
    generator_env = {k: v for k, v in env.items() if k != "DJANGO_SETTINGS_MODULE"}
    process = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--generate", spec.name],
        cwd=ROOT,
        env=generator_env,
        stdout=subprocess.PIPE,
        text=True,
    )
    results: list[dict[str, Any]] = []
    stopped, cut = threading.Event(), threading.Event()

    def guard() -> None:
        while process.poll() is None and not stopped.is_set():
            if watch.over_limit.is_set():
                print(f"past {watch.limit} PostgreSQL connections: the step is stopped", file=sys.stderr)
                cut.set()
                process.terminate()
                return
            if any(stack_process.poll() is not None for _, stack_process, _ in processes):
                cut.set()
                process.terminate()  # the stack's death is reported below, with its last lines
                return
            time.sleep(0.5)

    watcher = threading.Thread(target=guard, daemon=True)
    watcher.start()
    assert process.stdout is not None
    for line in process.stdout:
        step = json.loads(line)
        if "starting" in step:
            if outage is not None:
                outage.begin()  # its delay counts from the crowd's start
            continue
        print(
            f"{step['label']}: {step['users']} users, {step['overall']['count']} requests, "
            f"p99 {step['overall']['p99']:.0f} ms, {step['errors']} errors",
            file=sys.stderr,
        )
        step["load"] = os.getloadavg()[0]
        results.append(step)
    stopped.set()
    process.wait()
    Path(spec.name).unlink()
    for label, stack_process, log in processes:
        stop_if_dead(stack_process, label, log)
    if process.returncode != 0 and not cut.is_set():
        raise SystemExit(f"the load generator failed (exit {process.returncode})")
    if outage is not None:
        outage.join()
    return results


def annotate(step: dict[str, Any], watch: Watch, database_url: str) -> None:
    seconds = step["ended"] - step["started"]
    step["seconds"] = seconds
    step["rated_matches"] = rated_matches(database_url, step["started"], step["ended"])
    step["rated_per_s"] = step["rated_matches"] / seconds
    step["pg_peak"] = watch.peak(step["started"], step["ended"])
    step["requests_per_s"] = step["overall"]["count"] / seconds


def ratio(value: float, base: float) -> str:
    return f"{value / base:.2f}x" if base else "n/a"


def statuses_text(statuses: dict[str, int]) -> str:
    bad = {code: n for code, n in statuses.items() if code == "0" or int(code) >= 400}
    return ", ".join(f"{n}×{'no answer' if code == '0' else code}" for code, n in sorted(bad.items())) or "none"


def report(
    args: argparse.Namespace,
    base: dict[str, Any],
    steps: list[dict[str, Any]],
    focus: dict[str, Any] | None,
    outage: dict[str, Any] | None,
    cut: str | None,
) -> str:
    from bench.trees import machine

    lines = [
        f"machine: {machine()}; command: `python bench/crowd.py {' '.join(sys.argv[1:])}`",
        "",
        "| step | users | requests/s | p50 ms | p99 ms | p99 / alone | errors | rated matches/s (/ alone) "
        "| PostgreSQL connections, peak (/ alone) | load (1 min) |",
        "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|",
    ]
    for step in [base, *steps]:
        lines.append(
            f"| {step['label']} | {step['users']} | {step['requests_per_s']:.1f} | {step['overall']['p50']:.0f} "
            f"| {step['overall']['p99']:.0f} | {ratio(step['overall']['p99'], base['overall']['p99'])} "
            f"| {statuses_text(step['overall'].get('statuses', {}))} "
            f"| {step['rated_per_s']:.2f} ({ratio(step['rated_per_s'], base['rated_per_s'])}) "
            f"| {step['pg_peak']} ({ratio(step['pg_peak'], base['pg_peak'])}) | {step['load']:.1f} |"
        )
    if focus is not None:
        lines += [
            "",
            f"Per route, {focus['label']} ({focus['users']} users) against each route alone (one user):",
            "",
            "| route | requests | p50 ms | p99 ms | p50 alone | p99 alone | p50 / alone | p99 / alone | errors |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---|",
        ]
        for route, row in focus["routes"].items():
            alone = base["routes"].get(route)
            p50a, p99a = (alone["p50"], alone["p99"]) if alone else (0.0, 0.0)
            lines.append(
                f"| {route} | {row['count']} | {row['p50']:.0f} | {row['p99']:.0f} | {p50a:.0f} | {p99a:.0f} "
                f"| {ratio(row['p50'], p50a)} | {ratio(row['p99'], p99a)} | {statuses_text(row['statuses'])} |"
            )
        streams = focus.get("streams", {})
        if streams.get("seconds"):
            lines.append(
                f"\nEvent streams: {streams['held']} held for {streams['seconds']:.0f} s in all, "
                f"{streams['events']} events ({streams['events'] / streams['seconds'] * 60:.1f} per stream-minute)."
            )
        people = focus.get("people", {})
        if people:
            lines.append(
                f"People playing: friendly tables opened {people['tables_opened']}, joins of "
                f"the arena's queue {people['queued']} ({people['seated_from_queue']} seated from it), actions "
                f"{people['actions']}, games seen to their end {people['games_over']}."
            )
    if args.mode == "ramp":
        good = [s for s in steps if s["overall"]["p99"] < args.p99_limit and s["errors"] == 0]
        if cut is not None:
            verdict = f"the largest crowd held (p99 < {args.p99_limit:.0f} ms, 0 errors): "
            verdict += f"**{good[-1]['users']} users**" if good else "none"
            verdict += f"; at {cut}"
        elif good and len(good) == len(steps):
            verdict = f"every step held (p99 < {args.p99_limit:.0f} ms, 0 errors): at least {good[-1]['users']} users"
        elif good:
            verdict = f"the largest crowd held (p99 < {args.p99_limit:.0f} ms, 0 errors): **{good[-1]['users']} users**"
            verdict += f"; {steps[len(good)]['users']} users broke it"
        else:
            verdict = f"no step held (p99 < {args.p99_limit:.0f} ms, 0 errors)"
        lines += ["", verdict]
    if outage is not None:
        lines += [
            "",
            f"Outage: every backend of the stack's database killed every 0.25 s for {outage['seconds']:.0f} s "
            f"({outage['killed']} backends killed). Answers from its start to 2 s after its end:",
            "",
            "| 2xx | 500 | 503 | other 5xx | no answer | other 4xx |",
            "|---:|---:|---:|---:|---:|---:|",
            f"| {outage['2xx']} | {outage['500']} | {outage['503']} | {outage['other_5xx']} | {outage['no_answer']} "
            f"| {outage['4xx']} |",
            "",
            f"Nothing lost: {outage['lost']['keys_2xx']} matches answered 2xx to an Idempotency-Key "
            f"({outage['lost']['keys_sent']} keys sent), {outage['lost']['missing']} missing, "
            f"{outage['lost']['answer_differs_from_stored']} differing from the stored answer; "
            f"{outage['lost']['api_matches']} API matches for {outage['lost']['stored_keys']} stored keys: "
            f"{'exactly once' if outage['lost']['exactly_once'] else 'NOT exactly once'}. "
            f"Ratings: {outage['lost']['ratings']}.",
        ]
    return "\n".join(lines)


def outage_counts(step: dict[str, Any], start: float, end: float) -> dict[str, int]:
    counts = {"2xx": 0, "500": 0, "503": 0, "other_5xx": 0, "no_answer": 0, "4xx": 0}
    for second, statuses in step["per_second"].items():
        if not start - 1 <= int(second) <= end + 2:
            continue
        for code, n in statuses.items():
            status = int(code)
            key = (
                "no_answer"
                if status == 0
                else "2xx"
                if status < 400
                else "4xx"
                if status < 500
                else code
                if code in ("500", "503")
                else "other_5xx"
            )
            counts[key] += n
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=["crowd", "ramp", "outage"], default="crowd")
    parser.add_argument("--users", type=int, default=20, help="crowd size of --mode crowd and outage")
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the crowd (crowd, outage)")
    parser.add_argument("--steps", default="10,20,40,80", help="crowd sizes of the ramp, in order")
    parser.add_argument("--step-seconds", type=float, default=20.0)
    parser.add_argument("--p99-limit", type=float, default=300.0, help="ms: a ramp step holds below it, 0 errors")
    parser.add_argument("--baseline-seconds", type=float, default=40.0, help="one user of each kind alone, in all")
    parser.add_argument("--warmup-seconds", type=float, default=6.0, help="a short crowd first, not measured")
    parser.add_argument("--outage-seconds", type=float, default=10.0)
    parser.add_argument("--max-connections", type=int, default=40, help="stop a step past this many connections")
    parser.add_argument("--people", type=int, default=150, help="seeded people (the crowd's people share them)")
    parser.add_argument("--bots", type=int, default=24, help="seeded bots, entered in the arena")
    parser.add_argument("--history", type=int, default=120, help="rated matches played before the crowd")
    parser.add_argument("--port", type=int, default=0, help="the stack's port (0: a free one)")
    parser.add_argument("--url", default="", help="attach to this running stack instead of starting one")
    parser.add_argument("--markdown", default="", help="write the summary here too")
    parser.add_argument("--json", default="", help="write every figure here")
    args = parser.parse_args()

    import redis

    from bench.trees import VAR, database_url
    from common.services import parse_postgres_url

    tag = f"bench-crowd-{os.getpid()}"
    url = args.url.rstrip("/") if args.url else ""
    db_url = (
        os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/arena") if url else database_url("_crowd")
    )
    target = parse_postgres_url(db_url)
    auth = target.user + (f":{target.password}" if target.password else "")
    server_url = f"postgres://{auth}@{target.host}:{target.port}/postgres"
    env = dict(
        os.environ,
        DATABASE_URL=db_url,
        ARENA_QUEUE=tag,
        ARENA_PERIODIC_QUEUE=f"{tag}-periodic",
        ARENA_REQUIRE_SERVICES="1",
        ARENA_DATABASE_FALLBACK="0",
        ARENA_REDIS_FALLBACK="0",
        SECRET_KEY=os.environ.get("SECRET_KEY") or secrets.token_urlsafe(64),
        PYTHONPATH=str(ROOT),
        **UNTHROTTLED,
    )

    def driver(name: str, *extra: str) -> dict[str, Any]:
        command = [sys.executable, str(Path(__file__).resolve()), "--driver", name, *extra]
        done = subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"the {name} step failed (exit {done.returncode})")
        answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        return answer

    started = time.monotonic()
    sizes = [f"--bots={args.bots}", f"--people={args.people}", f"--history={args.history}"]
    seed = driver("seed", *sizes, *([] if url else ["--reset"]))
    VAR.mkdir(parents=True, exist_ok=True)
    seed_path = VAR / f"crowd-{os.getpid()}-seed.json"
    seed_path.write_text(json.dumps(seed))
    print(f"seeded in {time.monotonic() - started:.0f} s ({seed_path})", file=sys.stderr)

    port = args.port or _free_port()
    host = url or f"http://127.0.0.1:{port}"
    watch = Watch(server_url, target.name)
    watch.limit = args.max_connections
    # Every step's users arrive within about two seconds.
    spawn = max(2.0, (max(int(s) for s in args.steps.split(",")) if args.mode == "ramp" else args.users) / 2)

    @contextmanager
    def serving() -> Iterator[list[tuple[str, subprocess.Popen[bytes], Path]]]:
        if url:
            yield []
            return
        with stack(env, port, tag) as processes:
            yield processes

    outage_report: dict[str, Any] | None = None
    cut: str | None = None
    try:
        with serving() as processes, watch:
            base_plan = {
                "host": host,
                "seed": seed,
                "spawn_rate": spawn,
                "steps": [
                    # Not measured: each process's first requests (imports, templates, connections).
                    {"label": "warm-up", "classes": KINDS, "users": len(KINDS), "seconds": args.warmup_seconds},
                    {
                        "label": "alone (1 user of each kind in turn)",
                        "classes": KINDS,
                        "users": 1,
                        "seconds": args.baseline_seconds,
                        "in_turn": True,
                        "wait": [0.1, 0.3],
                    },
                ],
            }
            base_steps = run_plan(base_plan, env, watch, processes)
            if len(base_steps) < 2:
                raise SystemExit("the baseline did not complete")
            base = base_steps[1]
            annotate(base, watch, db_url)
            outage: Outage | None = None
            if args.mode == "ramp":
                sizes_ = [int(s) for s in args.steps.split(",")]
                steps = [
                    {"label": f"ramp: {n} users", "classes": KINDS, "users": n, "seconds": args.step_seconds}
                    for n in sizes_
                ]
                plan = {"host": host, "seed": seed, "spawn_rate": spawn, "steps": steps, "stop_p99": args.p99_limit}
            else:
                label = "crowd" if args.mode == "crowd" else "crowd with an outage"
                steps = [{"label": label, "classes": KINDS, "users": args.users, "seconds": args.seconds}]
                plan = {"host": host, "seed": seed, "spawn_rate": spawn, "steps": steps}
                if args.mode == "outage":
                    outage = Outage(server_url, target.name, args.seconds / 3, args.outage_seconds)
            results = run_plan(plan, env, watch, processes, outage)
            if watch.over_limit.is_set():
                # The step never finished: it broke the crowd as surely as a slow p99 (the ramp's answer).
                cut = f"{steps[len(results)]['users']} users: stopped past {watch.limit} PostgreSQL connections"
                if args.mode != "ramp":
                    raise SystemExit(cut)
            elif len(results) < len(steps) and args.mode != "ramp":
                raise SystemExit("the crowd was stopped before its end")
            for step in results:
                annotate(step, watch, db_url)
            if outage is not None:
                keys_file = VAR / f"crowd-{os.getpid()}-keys.json"
                # Every key of the run: the warm-up and the baseline created matches too.
                keys = [step["keys"] for step in [*base_steps, *results]]
                keys_file.write_text(json.dumps({key: v for each in keys for key, v in each.items()}))
                counts = outage_counts(results[0], outage.start, outage.end)
                # The worker and beat stop first: the ledger replay sees no commit in flight.
                for label, process, _ in processes:
                    if label != "gunicorn":
                        from bench.trees import stop

                        stop(process)
                lost = driver("verify", f"--keys={keys_file}")
                keys_file.unlink()
                outage_report = {
                    **counts,
                    "seconds": outage.end - outage.start,
                    "killed": outage.killed,
                    "start": outage.start,
                    "end": outage.end,
                    "lost": lost,
                }
    finally:
        if not url:  # the queues of this run (their names carry its process id)
            redis.Redis.from_url(env.get("REDIS_URL", "redis://127.0.0.1:6379/0")).delete(tag, f"{tag}-periodic")

    focus: dict[str, Any] | None = None
    if results:
        if args.mode == "ramp":
            held = [s for s in results if s["overall"]["p99"] < args.p99_limit and s["errors"] == 0]
            focus = held[-1] if held else results[0]
        else:
            focus = results[0]
    text = report(args, base, results, focus, outage_report, cut)
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text + "\n")
    if args.json:
        for step in [base, *results]:
            step.pop("per_second", None)
            step.pop("keys", None)
        figures = {"mode": args.mode, "baseline": base, "steps": results, "outage": outage_report}
        Path(args.json).write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    if "--driver" in sys.argv:
        drive(sys.argv[1:])
    elif len(sys.argv) > 2 and sys.argv[1] == "--generate":
        generate(sys.argv[2:])
    else:
        main()
