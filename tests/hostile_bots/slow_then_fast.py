"""Takes 400 ms on its first move and 800 ms on its second: eats into, then exhausts, the time bank."""

import json
import sys
import time

moves = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
        continue
    moves += 1
    time.sleep({1: 0.4, 2: 0.8}.get(moves, 0))
    print(json.dumps({"type": "cut", "cuts": [0, 6], "time_ms": msg["time_ms"]}), flush=True)
