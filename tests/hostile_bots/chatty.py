"""Prints a debug line to stdout after its answer."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
        print("debug: ready sent", flush=True)
        continue
    print(json.dumps({"type": "cut", "cuts": [0, 6]}), flush=True)
