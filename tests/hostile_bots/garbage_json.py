"""Answers with something that is not JSON."""

import json
import sys


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        reply({"type": "ready"})
        continue
    sys.stdout.write("{cut: [0, 6],\n")
    sys.stdout.flush()
