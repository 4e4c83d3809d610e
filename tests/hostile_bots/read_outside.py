"""Tries to read files and environment it must not see; reports what it found in its move."""

import json
import os
import sys


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        paths = msg["options"]["paths"]
        reply({"type": "ready"})
        continue
    found = {}
    for path in paths:
        try:
            with open(path, "rb") as fh:
                found[path] = fh.read(200).decode("latin-1")
        except OSError as exc:
            found[path] = None
            print(f"{path}: {exc}", file=sys.stderr)
    reply({"type": "cut", "cuts": [0, 6], "found": found, "environ": dict(os.environ), "root": sorted(os.listdir("/"))})
