"""Allocates memory until something gives."""

import json
import sys


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


hoard = []
for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        reply({"type": "ready"})
        continue
    while True:
        hoard.append(bytearray(64 * 1024 * 1024))
