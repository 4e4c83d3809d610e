"""Forks without end once asked to move."""

import json
import os
import sys


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        reply({"type": "ready"})
        continue
    while True:
        try:
            os.fork()
        except OSError:
            pass
