"""Asks for memory until it is refused.

The blocks come zeroed from calloc (`bytes(n)`), so no page is written: the address-space limit
refuses the bot within microseconds however busy the machine, and it crashes with MemoryError. (A
hog writing every page raced the move clock on a loaded machine and sometimes timed out first.)
"""

import json
import sys


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


hoard = []
for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        reply({"type": "ready"})
        continue
    while True:
        hoard.append(bytes(64 * 1024 * 1024))
