"""Plays the starter kit's moves, but first tries to read what a bot must never see.

PATHS is filled in by the test; every attempt is reported on stderr, a success as LEAKED.
"""

import json
import os
import sys

import kit

PATHS = json.loads("""__PATHS__""")


def attack():
    for path in PATHS:
        try:
            with open(path, "rb") as fh:
                print(f"read {path}: LEAKED {fh.read(80)!r}", file=sys.stderr)
        except OSError as exc:
            print(f"read {path}: refused ({exc.__class__.__name__})", file=sys.stderr)
    print(f"environment: {sorted(os.environ)}", file=sys.stderr)


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif msg["type"] == "act":
        attack()
        obs = msg["observation"]
        print(json.dumps(kit.choose_cut(obs) if obs["phase"] == "cut" else kit.choose_take(obs)), flush=True)
    else:
        break
