"""Floods stdout with one endless line."""

import json
import sys


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        reply({"type": "ready"})
        continue
    chunk = "A" * 65536
    while True:
        sys.stdout.write(chunk)
