"""Answers every decision with a take of a portion that does not exist."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif msg["type"] == "act":
        print(json.dumps({"type": "take", "portion": 99, "eat": [], "steals": [], "marianne": None}), flush=True)
