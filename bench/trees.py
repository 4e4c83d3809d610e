"""What the benchmarks comparing this tree with an earlier commit share: the other tree, its database, the machine."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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


def database_url(suffix: str) -> str:
    """DATABASE_URL with `suffix` appended to the database name: a benchmark never touches live data."""
    from common.env import env_str
    from common.services import parse_postgres_url

    target = parse_postgres_url(env_str("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/arena"))
    auth = target.user + (f":{target.password}" if target.password else "")
    return f"postgres://{auth}@{target.host}:{target.port}/{target.name}{suffix}"


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
