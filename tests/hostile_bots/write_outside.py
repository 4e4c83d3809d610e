"""Tries to write everywhere; reports which writes worked."""

import json
import sys


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


TARGETS = [
    "/bot/planted.py",
    "/usr/planted",
    "/etc/planted",
    "/planted",
    "/proc/planted",
    "/dev/planted",
    "/tmp/planted",
]
for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        reply({"type": "ready"})
        continue
    wrote = {}
    for path in TARGETS:
        try:
            with open(path, "w") as fh:
                fh.write("planted")
            wrote[path] = True
        except OSError as exc:
            wrote[path] = False
            print(f"{path}: {exc}", file=sys.stderr)
    reply({"type": "cut", "cuts": [0, 6], "wrote": wrote})
