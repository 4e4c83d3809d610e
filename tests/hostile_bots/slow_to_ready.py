"""Reads "start", then thinks for a second before it says it is ready: slow on its own clock."""

import json
import sys
import time

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        time.sleep(1.0)
        print(json.dumps({"type": "ready"}), flush=True)
        continue
    print(json.dumps({"type": "cut", "cuts": [0, 6]}), flush=True)
