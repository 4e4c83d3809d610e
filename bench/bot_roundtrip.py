"""Per-move round trip of external bots against an in-process call, measured side by side.

The same decision code (the Python starter kit) answers the same observations
(recorded from real games) three ways:

* in process: a direct function call on the observation's JSON dict;
* sandboxed: protocol v1 over stdin/stdout to the kit running under bubblewrap,
  per-slot uid, rlimits and seccomp (``SandboxedBot``);
* HTTP: protocol v1 POSTed to a local HTTP server wrapping the kit, on
  127.0.0.1 with ``allow_private`` (``HttpBot``), in a separate process.

Rounds alternate between the three so machine noise hits them alike.  Also
reported: the sandbox's start-up (spawn to "ready").

    python bench/bot_roundtrip.py [--moves 3000] [--starts 20] [--markdown]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from botclient import HttpBot, SandboxedBot  # noqa: E402
from games.part_du_chef import State  # noqa: E402
from games.part_du_chef.bots import get_bot  # noqa: E402
from sandbox import Sandbox  # noqa: E402

KIT = ROOT / "starter-kits" / "python" / "bot.py"


def load_kit() -> Any:
    spec = importlib.util.spec_from_file_location("starter_kit", KIT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kit_decide(kit: Any, observation: dict[str, Any]) -> dict[str, Any]:
    decision: dict[str, Any] = (
        kit.choose_cut(observation) if observation["phase"] == "cut" else kit.choose_take(observation)
    )
    return decision


def observations(count: int) -> list[dict[str, Any]]:
    """Observations from real 4-player games between greedy bots, as sent to external bots."""
    found: list[dict[str, Any]] = []
    seed = 0
    while len(found) < count:
        state = State.new(4, seed, marianne=True)
        bots = [get_bot("greedy", seed=seat) for seat in range(4)]
        while not state.is_over and len(found) < count:
            seat = state.to_act
            assert seat is not None  # a game that is not over has a seat to act
            observation = state.observation(seat)
            found.append(observation.to_json())
            state.apply(bots[seat].act(observation))
        seed += 1
    return found


def serve(port_out: Any) -> None:
    """Run the starter kit as a hosted HTTP bot until killed."""
    kit = load_kit()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            message = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if message["type"] == "act":
                reply = kit_decide(kit, message["observation"])
            else:
                reply = {"type": "ready"}
            data = json.dumps(reply).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port_out.write(f"{httpd.server_address[1]}\n")
    port_out.flush()
    httpd.serve_forever()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=3000, help="decisions per mode")
    parser.add_argument("--starts", type=int, default=20, help="sandbox start-ups to time")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(sys.stdout)
        return

    from rich.console import Console
    from rich.progress import Progress

    kit = load_kit()
    sample = observations(args.moves)
    sandbox = Sandbox()
    sandbox.check()
    server = subprocess.Popen([sys.executable, __file__, "--serve"], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        port = int(server.stdout.readline())  # type: ignore[union-attr]  # stdout=PIPE, never None
        sandboxed = SandboxedBot(KIT, sandbox=sandbox, move_ms=5000, bank_ms=0)
        hosted = HttpBot(f"http://127.0.0.1:{port}/", allow_private=True, move_ms=5000, bank_ms=0)
        sandboxed.start(0, 4, {"marianne": True})
        hosted.start(0, 4, {"marianne": True})
        timings: dict[str, list[float]] = {"in-process call": [], "sandboxed (stdio)": [], "HTTP (127.0.0.1)": []}
        with Progress(transient=True, console=Console(stderr=True)) as progress:
            task = progress.add_task("round trips", total=len(sample) + args.starts)
            for observation in sample:
                began = time.perf_counter()
                kit_decide(kit, json.loads(json.dumps(observation)))
                timings["in-process call"].append((time.perf_counter() - began) * 1000)
                for label, bot in (("sandboxed (stdio)", sandboxed), ("HTTP (127.0.0.1)", hosted)):
                    began = time.perf_counter()
                    result = bot.act(observation)
                    elapsed = (time.perf_counter() - began) * 1000
                    if not result.ok:
                        raise SystemExit(f"{label}: {result.status} {result.error}")
                    timings[label].append(elapsed)
                progress.advance(task)
            sandboxed.close()
            hosted.close()
            starts = []
            for _ in range(args.starts):
                bot = SandboxedBot(KIT, sandbox=sandbox)
                began = time.perf_counter()
                bot.start(0, 4, {})
                starts.append((time.perf_counter() - began) * 1000)
                bot.close()
                progress.advance(task)
    finally:
        server.kill()
        server.wait()

    base = statistics.median(timings["in-process call"])
    rows = []
    for label, values in timings.items():
        median = statistics.median(values)
        rows.append((label, median, percentile(values, 0.9), percentile(values, 0.99), median - base, median / base))
    if args.markdown:
        print("| mode | median ms | p90 ms | p99 ms | overhead over in-process (median) | ratio |")
        print("|---|---:|---:|---:|---:|---:|")
        for label, median, p90, p99, over, ratio in rows:
            print(f"| {label} | {median:.3f} | {p90:.3f} | {p99:.3f} | {over:+.3f} ms | {ratio:.1f}x |")
        print()
        print(
            f"Sandbox start-up (spawn to `ready`), {len(starts)} runs: median {statistics.median(starts):.1f} ms, "
            f"max {max(starts):.1f} ms. {len(sample)} decisions per mode."
        )
    else:
        for label, median, p90, p99, over, ratio in rows:
            print(
                f"{label:20s} median {median:8.3f} ms  p90 {p90:8.3f}  p99 {p99:8.3f}  {over:+8.3f} ms  {ratio:6.1f}x"
            )
        print(f"sandbox start-up median {statistics.median(starts):.1f} ms (max {max(starts):.1f}), {len(starts)} runs")


if __name__ == "__main__":
    main()
