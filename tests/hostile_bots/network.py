"""Tries to reach the host's Redis, the internet, and to open raw and netlink sockets."""

import json
import socket
import sys


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


ATTEMPTS = {
    "tcp_redis": (socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", 6379)),
    "tcp_internet": (socket.AF_INET, socket.SOCK_STREAM, ("1.1.1.1", 80)),
    "tcp6_loopback": (socket.AF_INET6, socket.SOCK_STREAM, ("::1", 6379)),
    "netlink": (socket.AF_NETLINK, socket.SOCK_RAW, None),
    "packet": (socket.AF_PACKET, socket.SOCK_RAW, None),
}
for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        reply({"type": "ready"})
        continue
    result = {}
    for name, (family, kind, address) in ATTEMPTS.items():
        try:
            with socket.socket(family, kind) as sock:
                sock.settimeout(0.5)
                if address is not None:
                    sock.connect(address)
            result[name] = "connected"
        except OSError as exc:
            result[name] = f"refused: {exc}"
    reply({"type": "cut", "cuts": [0, 6], "network": result})
