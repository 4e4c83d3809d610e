"""Starter bot for La Part du Chef, bot protocol v1 (JSON Lines on stdin/stdout).

Copy this file, improve ``choose_cut`` and ``choose_take``, and upload it as
your bot (one .py file, or a .zip with this file as main.py).  Standard
library only; print logs to stderr, never to stdout.

Try it locally:
    echo '{"type":"start","protocol":1,"game":"part-du-chef","seat":0,"players":2}' | python3 bot.py
"""

from __future__ import annotations

import json
import sys

BURNT_PENALTY = 3


def slice_value(piece: dict) -> int:
    """A rough worth: one point per slice, olives if eaten later, burnt slices cost 3."""
    if piece["sort"] == "burnt":
        return -BURNT_PENALTY
    return 1 + piece["olives"]


def portions_of(ring: list[dict], cuts: list[int]) -> list[list[dict]]:
    """Portion i runs from cuts[i] up to cuts[i+1]-1, the last one wraps around."""
    result = []
    for i, start in enumerate(cuts):
        end = cuts[(i + 1) % len(cuts)]
        length = (end - start) % 13 or 13
        result.append([ring[(start + k) % 13] for k in range(length)])
    return result


def choose_cut(obs: dict) -> dict:
    """Cut evenly, turned so that the best portion (others choose first) is as poor as possible."""
    players = obs["players"]
    spacing = sorted({round(i * 13 / players) for i in range(players)})
    best_cuts, best_worst = None, None
    for offset in range(13):
        cuts = sorted((c + offset) % 13 for c in spacing)
        richest = max(sum(slice_value(p) for p in portion) for portion in portions_of(obs["ring"], cuts))
        if best_worst is None or richest < best_worst:
            best_cuts, best_worst = cuts, richest
    return {"type": "cut", "cuts": best_cuts, "marianne": None}


def choose_take(obs: dict) -> dict:
    """Take the richest portion left and keep every slice (majorities and variety pay)."""
    by_id = {piece["id"]: piece for piece in obs["ring"]}
    free = [p for p in obs["portions"] if p["taken_by"] is None]
    best = max(free, key=lambda p: sum(slice_value(by_id[i]) for i in p["slices"]))
    return {"type": "take", "portion": best["index"], "eat": [], "steals": [], "marianne": None}


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "start":
            print(f"seat {message['seat']} of {message['players']}", file=sys.stderr)
            # "more_games": this bot keeps nothing from one game to the next, so one process may play many.
            reply = {"type": "ready", "more_games": True}
        elif kind == "act":
            obs = message["observation"]
            reply = choose_cut(obs) if obs["phase"] == "cut" else choose_take(obs)
        elif kind == "end":
            print(f"final ranks {message['ranks']}", file=sys.stderr)
            continue  # the next game's "start" may follow; the arena stops the process when it is done
        else:
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
