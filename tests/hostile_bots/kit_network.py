"""Plays the starter kit's moves, but first tries to reach Redis, PostgreSQL and the internet."""

import json
import socket
import sys

import kit

ATTEMPTS = {
    "redis": (socket.AF_INET, ("127.0.0.1", 6379)),
    "postgresql": (socket.AF_INET, ("127.0.0.1", 5432)),
    "internet": (socket.AF_INET, ("1.1.1.1", 80)),
    "loopback6": (socket.AF_INET6, ("::1", 6379)),
}


def attack():
    for name, (family, address) in ATTEMPTS.items():
        try:
            with socket.socket(family, socket.SOCK_STREAM) as sock:
                sock.settimeout(0.2)
                sock.connect(address)
            print(f"connect {name}: CONNECTED", file=sys.stderr)
        except OSError as exc:
            print(f"connect {name}: refused ({exc})", file=sys.stderr)


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif msg["type"] == "act":
        attack()
        obs = msg["observation"]
        print(json.dumps(kit.choose_cut(obs) if obs["phase"] == "cut" else kit.choose_take(obs)), flush=True)
    else:
        break
