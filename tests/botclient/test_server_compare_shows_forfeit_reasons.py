"""`part-du-chef server-compare --wait` prints every forfeit of the comparison with its reason, then the verdict."""

from __future__ import annotations

import argparse
from typing import Any

from botclient.server import _compare


class RecordedServer:
    """The server's answers as its API gives them, for the command's two calls (no network)."""

    def __init__(self, finished: dict[str, Any]) -> None:
        self.finished = finished
        self.calls: list[tuple[str, str]] = []

    def call(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        self.calls.append((method, path))
        if method == "POST":
            return {"id": 9, "version": 2, "status": "queued"}
        return self.finished


def test_server_compare_prints_each_forfeit_with_its_reason_before_the_verdict() -> None:
    server = RecordedServer(
        {
            "status": "finished",
            "forfeits": [
                {"bot": 4, "version": 2, "deal": 1, "seed": 17, "seat": 1, "reason": "timeout: no reply within 1000 ms"}
            ],
            "result": {"verdict": "chef v1 is better than chef v2: 3.10 points per game more"},
        }
    )
    args = argparse.Namespace(bot=4, against_version=1, deals=2, opponents="greedy", wait=True)
    said: list[str] = []

    assert _compare(server, args, said.append) == 0  # type: ignore[arg-type]

    assert said == [
        "comparison 9 queued: version 2 against version 1",
        "forfeit: version 2 in deal 1 (seed 17), seat 1: timeout: no reply within 1000 ms",
        "verdict: chef v1 is better than chef v2: 3.10 points per game more",
    ]
    assert server.calls == [("POST", "/api/bots/4/compare/"), ("GET", "/api/bots/4/compares/9/")]
