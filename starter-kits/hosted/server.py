"""A hosted bot for La Part du Chef: a small HTTP server speaking bot protocol v1 (standard library only).

The arena POSTs each protocol v1 message as a JSON body to your URL and reads the reply from the
response body: `start` -> `{"type": "ready"}`, `act` -> your action, `end` -> anything (ignored).
It plays the Python starter kit's strategy (../python/bot.py): put yours in `reply()`.

    python3 starter-kits/hosted/server.py --port 8080
    part-du-chef simulate --players 2 --bots http://127.0.0.1:8080/,greedy --verbose

The arena calls public addresses only; on your own machine `make run` allows this one when started
with ARENA_BOT_ALLOW_PRIVATE_URLS=1 (docs/bots-submission.md, "Hosted bots on your own machine").
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))
from bot import choose_cut, choose_take  # noqa: E402  (the Python kit's strategy)

MAX_BODY = 64 * 1024  # protocol messages are at most 64 KiB


def reply(message: dict) -> dict:
    """Your bot: one reply per message, exactly as over stdin/stdout."""
    if message.get("type") == "start":
        print(f"seat {message['seat']} of {message['players']}", file=sys.stderr)
        return {"type": "ready"}
    if message.get("type") == "act":
        obs = message["observation"]
        return choose_cut(obs) if obs["phase"] == "cut" else choose_take(obs)
    return {}  # "end": the reply is ignored


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the arena keeps one connection for the whole match

    def setup(self) -> None:
        super().setup()
        # Small replies go out at once instead of waiting for Nagle's algorithm (up to 40 ms a decision).
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if not 0 < length <= MAX_BODY:
            self.send_error(400, "a protocol v1 message of at most 64 KiB is expected")
            return
        try:
            message = json.loads(self.rfile.read(length))
        except ValueError:
            self.send_error(400, "the body is not JSON")
            return
        body = json.dumps(reply(message)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass  # one line per decision would drown your own logs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to be reachable from other machines")
    parser.add_argument("--port", type=int, default=8080)
    args = parser.parse_args()
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    print(f"hosted bot at http://{args.host}:{server.server_address[1]}/", file=sys.stderr, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
