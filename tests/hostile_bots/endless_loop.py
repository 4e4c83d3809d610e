"""Spins the CPU and never answers."""

import json
import sys


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        reply({"type": "ready"})
        continue
    while True:
        pass
