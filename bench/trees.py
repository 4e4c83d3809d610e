"""What the benchmarks comparing this tree with an earlier commit share: the other tree, its database, the machine."""

from __future__ import annotations

import atexit
import fcntl
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
# Where the benchmarks keep what outlives a run: the processes' logs, the baseline's virtual environment.
VAR = ROOT / "var" / "bench"


@contextmanager
def baseline_tree(ref: str) -> Iterator[Path]:
    """The files of commit `ref` in a temporary folder (git archive: the repository is not touched)."""
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], capture_output=True, check=False)
        if archive.returncode != 0:
            raise SystemExit(f"cannot extract baseline {ref!r}: {archive.stderr.decode().strip()}")
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        yield Path(tmp)


@contextmanager
def baseline_context(ref: str) -> Iterator[Path | None]:
    """The baseline's tree, or None when `ref` is 'none' (no comparison)."""
    if ref.lower() == "none":
        yield None
        return
    with baseline_tree(ref) as tree:
        yield tree


def database_url(suffix: str, *, fresh: bool = False) -> str:
    """DATABASE_URL with `suffix` appended to the database name, created when missing: a benchmark never
    touches live data, and runs from a fresh clone. `fresh`: dropped first, for a baseline tree, whose
    migrations cannot undo those of another commit measured before in the same database."""
    from common.env import env_str
    from common.services import ensure_postgres_database, parse_postgres_url

    target = parse_postgres_url(env_str("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/arena"))
    auth = target.user + (f":{target.password}" if target.password else "")
    url = f"postgres://{auth}@{target.host}:{target.port}/{target.name}{suffix}"
    if fresh:
        server = f"postgres://{auth}@{target.host}:{target.port}/postgres"
        with psycopg.connect(server, autocommit=True) as conn:
            drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(target.name + suffix))
            conn.execute(drop)
    problem = ensure_postgres_database(parse_postgres_url(url))
    if problem is not None:
        raise SystemExit(f"cannot create or reach the benchmark's database {target.name}{suffix}: {problem}")
    return url


def baseline_python(tree: Path) -> str:
    """The Python of a virtual environment holding exactly the baseline's requirements.

    This tree's `.venv` cannot serve: its editable install finds this tree's packages for any module
    the baseline's own tree lacks (the packages moved), so the baseline would run a mix of both trees.
    The environment is made once per requirements file (keyed by its hash) under var/bench/.
    """
    requirements = tree / "requirements.txt"
    key = hashlib.sha256(requirements.read_bytes()).hexdigest()[:16]
    venv = VAR / f"baseline-venv-{key}"
    python = venv / "bin" / "python"
    ready = venv / ".installed"
    VAR.mkdir(parents=True, exist_ok=True)
    # Two runs starting at once: the second waits for the first's environment instead of breaking it.
    with (VAR / f"baseline-venv-{key}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if ready.exists():
            return str(python)
        shutil.rmtree(venv, ignore_errors=True)
        print(f"making the baseline's virtual environment ({venv.relative_to(ROOT)}), once", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r", str(requirements)]
        done = subprocess.run(pip, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"cannot install the baseline's requirements:\n{done.stdout}{done.stderr}")
        ready.touch()
    return str(python)


def own_queues(name: str) -> str:
    """Route every task this benchmark's stack sends to queues of its own, `bench-<name>-<pid>` and its
    periodic twin (CELERY_TASK_ROUTES follows ARENA_PERIODIC_QUEUE), never the service's `arena`: a
    task sent on a commit (a bot's validation, a match) would otherwise wait there for the service's
    workers. Call it before Django's settings are loaded; the queues are deleted when the process exits."""
    tag = f"bench-{name}-{os.getpid()}"
    os.environ.update(ARENA_QUEUE=tag, ARENA_PERIODIC_QUEUE=f"{tag}-periodic")
    atexit.register(drop_queues, tag)
    return tag


def drop_queues(tag: str) -> None:
    """Delete the queues `own_queues` named, with the bindings the broker keeps for them."""
    import redis
    from django.conf import settings

    queues = (tag, f"{tag}-periodic")
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        # Kombu's Redis transport keeps each queue's exchange bindings in two sets named after it.
        bindings = [f"_kombu.{table}.{queue}" for queue in queues for table in ("binding", "binding_permanent")]
        client.delete(*queues, *bindings)
    finally:
        client.close()


def log_path(name: str) -> Path:
    """A log file under var/bench/ for one process of a benchmark (emptied)."""
    VAR.mkdir(parents=True, exist_ok=True)
    path = VAR / f"{name}.log"
    path.write_bytes(b"")
    return path


def last_lines(path: Path, count: int = 25) -> str:
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return "(no log)"
    return "\n".join(lines[-count:]) or "(its log is empty)"


def start_celery(role: str, tag: str, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], Path]:
    """A real `celery -A config worker` (concurrency 2: both queues of `own_queues`) or `beat` (the
    periodic tasks, the matchmaker's tick among them), in a session of its own so that `stop` ends it
    with its children; its output goes to var/bench/<tag>-<role>.log, returned with it."""
    log = log_path(f"{tag}-{role}")
    if role == "beat":
        # A schedule file of its own: a beat's file remembers when each task last ran.
        schedule = Path(tempfile.mkdtemp(prefix="bench-beat-")) / "schedule"
        command = ["beat", "--loglevel=WARNING", f"--schedule={schedule}"]
    elif role == "worker":
        command = ["worker", "--concurrency=2", "--without-gossip", "--without-mingle", "--loglevel=WARNING"]
        command.append(f"--hostname={tag}@%h")
        # No remote control: the service's `celery inspect` is not for it, and its broadcast queue would
        # leave a deadline in kombu's key shared by every worker on the broker.
        env = dict(env, ARENA_WORKER_REMOTE_CONTROL="0")
    else:
        raise ValueError(f"a Celery process is a worker or beat, not {role!r}")
    with log.open("ab") as output:  # the child keeps its own descriptor
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", *command],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return process, log


def stop_if_dead(process: subprocess.Popen[bytes], label: str, log: Path) -> None:
    """Stop the benchmark at once, with the process's last lines, when a process it needs has died."""
    code = process.poll()
    if code is not None:
        raise SystemExit(f"{label} stopped (exit {code}); its last lines ({log}):\n{last_lines(log)}")


def stop(process: subprocess.Popen[bytes], timeout_s: float = 60.0) -> None:
    """Stop a worker or beat the benchmark started in a session of its own: SIGTERM, then SIGKILL."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=timeout_s)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)


def machine() -> str:
    """CPU count and model (`nproc`, `lscpu`), and the load at the time: absolute figures need them."""
    model = "unknown CPU"
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        found = re.search(r"^Model name:\s+(.+)$", lscpu, re.MULTILINE)
        if found:
            model = found.group(1).strip()
    except OSError:
        pass
    return f"{os.cpu_count()} CPUs ({model}), load average {os.getloadavg()[0]:.1f} at the end"
