"""Forks six helpers that each touch 200 MB at once: fine for any one process, too much together.

Answers with how many helpers finished and how many were killed.
"""

import json
import os
import signal
import sys
import time

for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
        continue
    for _ in range(6):
        if os.fork() == 0:
            block = bytearray(200 * 1024 * 1024)
            for i in range(0, len(block), 4096):
                block[i] = 1  # touch every page so it is really resident
            time.sleep(1.5)  # hold it while the others allocate
            os._exit(0)
    finished = killed = 0
    while True:
        try:
            _, status = os.wait()
        except ChildProcessError:
            break
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
            killed += 1
        else:
            finished += 1
    print(json.dumps({"type": "cut", "cuts": [0, 6], "finished": finished, "killed": killed}), flush=True)
