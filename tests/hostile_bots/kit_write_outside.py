"""Plays the starter kit's moves, but first tries to write outside its private /tmp.

TARGETS is filled in by the test; every attempt is reported on stderr, a success as WROTE.
"""

import json
import sys

import kit

TARGETS = json.loads("""__TARGETS__""")


def attack():
    for path in TARGETS:
        try:
            with open(path, "w") as fh:
                fh.write("planted by a bot")
            print(f"write {path}: WROTE", file=sys.stderr)
        except OSError as exc:
            print(f"write {path}: refused ({exc.__class__.__name__})", file=sys.stderr)


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
