"""Answers with JSON that is not an action."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
        continue
    print(json.dumps([1, 2, 3]), flush=True)
