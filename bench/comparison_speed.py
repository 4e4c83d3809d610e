"""A comparison of two versions through the service, its deals spread over Celery workers, against the same games
played in process in the same run.

The Python starter kit is submitted twice as an upload (versions 1 and 2 of one bot, validated here)
and compared through the service as an owner asks for it (`request_compare`, every deal asked for
played: `fixed`) against `greedy` and `random`: the comparison's task sends its deals, one task
each, to the Celery workers this script starts; each deal plays its 6 games side by side in
lockstep, every kit seat in a sandbox of its own. Timed from the request (`created_at`) to the
verdict (`finished_at`), both from the database.

In process = the same deals (same seeds, same seats, same opponents) played one game after the
other by `games.part_du_chef.comparison.compare` in this process, the kit's functions called
directly (bench/submitted_matches.py's `InProcessKit`): no protocol, no process, no database.

Rounds alternate service and in-process runs, so that whatever else the machine does hits both; the
ratio is the service's time over the in-process time, per round and over all rounds. A one-deal
comparison first starts the workers' pools, warms the unpack cache and is not timed.

    python bench/comparison_speed.py [--games 60] [--rounds 3] [--concurrency 2] [--workers 1]

Run as root with bubblewrap installed, PostgreSQL and Redis running; uses its own database
(`<DATABASE_URL name>_bench_compare`), queues named after its process id, and writes the workers'
output under var/bench/.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OPPONENTS = ["greedy", "random"]
GAMES_PER_DEAL = 2 * (len(OPPONENTS) + 1)


def start_worker(name: str, concurrency: int, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as output:  # the child keeps its own descriptor
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=prefork",
                f"--concurrency={concurrency}",
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60, help=f"games per run: a multiple of {GAMES_PER_DEAL}")
    parser.add_argument("--rounds", type=int, default=3, help="service and in-process runs, alternating")
    parser.add_argument("--workers", type=int, default=1, help="Celery worker processes")
    parser.add_argument("--concurrency", type=int, default=2, help="each worker's pool size")
    parser.add_argument("--parallel-deals", type=int, default=4, help="ARENA_COMPARE_PARALLEL_DEALS")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds to wait for one comparison")
    args = parser.parse_args()
    if args.games < GAMES_PER_DEAL or args.games % GAMES_PER_DEAL:
        raise SystemExit(f"--games: a deal is {GAMES_PER_DEAL} games here; give a multiple of {GAMES_PER_DEAL}")
    deals = args.games // GAMES_PER_DEAL

    from bench.trees import database_url, own_queues

    tag = own_queues("compare")
    os.environ.update(
        DATABASE_URL=database_url("_bench_compare"),
        ARENA_REQUIRE_SERVICES="1",
        ARENA_COMPARE_MAX_DEALS=str(max(deals, 1)),
        ARENA_COMPARE_PARALLEL_DEALS=str(args.parallel_deals),
        DATABASE_CONN_MAX_AGE="0",
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    import redis
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from bench.submitted_matches import KIT, InProcessKit, load_kit
    from bench.trees import log_path, machine, stop, stop_if_dead
    from games.part_du_chef.comparison import Comparison, compare
    from games.part_du_chef.seating import NamedBot
    from submissions import actions, comparing
    from submissions.models import BotComparison
    from submissions.seats import get_sandbox

    call_command("migrate", verbosity=0)
    get_sandbox().check()
    owner, _ = User.objects.get_or_create(username="bench-owner")
    # A bot of its own per run (its validation games stay in the benchmark's database, as matches do).
    name = f"bench-compare-{os.getpid()}"
    bot = actions.create_bot(owner=owner, name=name, game="part-du-chef", upload=("bot.py", KIT.read_bytes()))
    for number in (1, 2):
        if number == 2:
            actions.add_version(bot, upload=("bot.py", KIT.read_bytes()))
        version = bot.versions.get(number=number)
        if actions.run_validation(version.id) != "active":
            version.refresh_from_db()
            raise SystemExit(f"the kit's version {number} was not validated: {version.reason}")
    bot.refresh_from_db()

    kit = load_kit()

    def in_process(seed: int, count: int) -> tuple[float, Comparison]:
        a = NamedBot(f"{name} v2", lambda seat_seed: InProcessKit(kit))
        b = NamedBot(f"{name} v1", lambda seat_seed: InProcessKit(kit))
        against = [comparing.builtin_bot(name) for name in OPPONENTS]
        began = time.perf_counter()
        outcome = compare(a, b, against, count, seed)
        return time.perf_counter() - began, outcome

    env = dict(os.environ)
    logs = [log_path(f"{tag}-worker-{index}") for index in range(args.workers)]
    workers = [start_worker(f"{tag}-{index}", args.concurrency, env, logs[index]) for index in range(args.workers)]

    def through_service(count: int) -> tuple[float, BotComparison]:
        asked = comparing.request_compare(
            bot, against={"version": 1}, deals=count, opponents=OPPONENTS, marianne=False, fixed=True
        )
        deadline = time.monotonic() + args.timeout
        while True:
            row = BotComparison.objects.get(pk=asked.pk)
            if row.status in (BotComparison.Status.FINISHED, BotComparison.Status.FAILED):
                break
            for index, worker in enumerate(workers):
                stop_if_dead(worker, f"worker {index}", logs[index])
            if time.monotonic() > deadline:
                raise SystemExit(f"comparison {row.pk} took over {args.timeout:.0f} s; the workers' logs: {logs}")
            time.sleep(0.05)
        if row.status == BotComparison.Status.FAILED:
            raise SystemExit(f"comparison {row.pk} failed: {row.error}")
        assert row.finished_at is not None  # finished
        return (row.finished_at - row.created_at).total_seconds(), row

    rounds: list[tuple[float, float, bool]] = []
    try:
        through_service(1)  # the workers' pools start, the bundle is unpacked into their cache: not timed
        for number in range(args.rounds):
            service_s, row = through_service(deals)
            process_s, outcome = in_process(row.seed, deals)
            # The same games: the kit decides the same wherever it runs, so both give the same scores.
            expected = comparing.result_json(outcome)
            same = row.result is not None and all(row.result[side] == expected[side] for side in ("version", "against"))
            rounds.append((process_s, service_s, same))
            print(
                f"round {number + 1}: service {service_s:.2f} s, in process {process_s:.2f} s",
                file=sys.stderr,
            )
    finally:
        for worker in workers:
            stop(worker)
        redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(tag, f"{tag}-periodic")

    total_process = sum(process for process, _, _ in rounds)
    total_service = sum(service for _, service, _ in rounds)
    print(f"{args.games} games per run ({deals} deals of {GAMES_PER_DEAL} games: the starter kit uploaded, twice,")
    print(
        f"against {' and '.join(OPPONENTS)}); {args.workers} worker(s) of concurrency {args.concurrency}, "
        f"{args.parallel_deals} deals in flight"
    )
    print()
    print("| round | in process s | service s | same scores | ratio |")
    print("|---|---:|---:|---|---:|")
    for number, (process, service, same) in enumerate(rounds, start=1):
        print(f"| {number} | {process:.2f} | {service:.2f} | {'yes' if same else 'NO'} | {service / process:.2f}× |")
    print(f"| all | {total_process:.2f} | {total_service:.2f} | | **{total_service / total_process:.2f}×** |")
    print()
    print(f"goal: ≤ 3× ({'met' if total_service <= 3 * total_process else 'not met'}); machine: {machine()}")
    if not all(same for _, _, same in rounds):
        print("a run's scores differ from the in-process games' (a forfeit? see the comparison's result)")


if __name__ == "__main__":
    main()
