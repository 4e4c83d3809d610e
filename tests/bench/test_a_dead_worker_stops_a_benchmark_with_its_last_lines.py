"""A process a benchmark needs that dies stops the benchmark at once, with the last lines of its log."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bench.trees import log_path, stop_if_dead


def test_a_dead_process_stops_the_benchmark_with_its_last_lines() -> None:
    log = log_path("test-dead-worker")
    with log.open("ab") as output:
        process = subprocess.Popen(
            [sys.executable, "-c", "import sys; print('first line'); print('the worker cannot start'); sys.exit(3)"],
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    process.wait(timeout=60)
    with pytest.raises(SystemExit) as stopped:
        stop_if_dead(process, "the worker", log)
    message = str(stopped.value)
    assert "the worker stopped (exit 3)" in message
    assert "the worker cannot start" in message
    assert str(log) in message
    log.unlink()


def test_a_live_process_lets_the_benchmark_go_on() -> None:
    log = log_path("test-live-worker")
    with log.open("ab") as output:
        process = subprocess.Popen(
            [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE, stdout=output
        )
    try:
        stop_if_dead(process, "the worker", log)  # returns: the process is alive
    finally:
        process.communicate(b"", timeout=60)
    log.unlink()
