"""Writes to stderr without end once asked to act (more than the 16 MiB read per match)."""

import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        sys.stdout.write(json.dumps({"type": "ready"}) + "\n")
        sys.stdout.flush()
        continue
    chunk = "noise " * 10000 + "\n"
    while True:
        sys.stderr.write(chunk)
