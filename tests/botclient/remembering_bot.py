"""A bot that remembers: it asks to play many games in one process, and writes to stderr every pizza it is shown,
with the game it was shown in, before it answers. `part-du-chef --verbose` prints those lines in the order the
decisions were taken, across all the games of a run: from them a test sees whether the bot was ever shown, at
one table of a duplicate deal, a pizza that another table of the deal had not reached yet.

Its play is the first legal-looking choice: an even cut, the first free portion, nothing eaten.
"""

import json
import sys
import uuid

game = None
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        game = uuid.uuid4().hex  # a fresh id for each game this process plays
        reply = {"type": "ready", "more_games": True}
    elif message["type"] == "act":
        obs = message["observation"]
        ring = [piece["id"] for piece in obs["ring"]]
        print("saw " + json.dumps({"game": game, "pizza": obs["pizza"], "ring": ring}), file=sys.stderr, flush=True)
        if obs["phase"] == "cut":
            reply = {"type": "cut", "cuts": [*range(obs["players"] - 1), 12], "marianne": None}
        else:
            free = next(p["index"] for p in obs["portions"] if p["taken_by"] is None)
            reply = {"type": "take", "portion": free, "eat": [], "steals": [], "marianne": None}
    else:
        continue
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
