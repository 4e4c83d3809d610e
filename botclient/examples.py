"""The example conversation of docs/bot-protocol.md, produced by running the code, never written by hand.

The Python starter kit plays seat 1 of a real three-player game with La Marianne against two `greedy`
bots, through the same protocol v1 session and failure policy as in the arena; every message it is
sent and every answer it gives are recorded. The doc shows the `start`, the `act` of its first take of
the third pizza (a position mid-game) and the `end`; tests/botclient/test_protocol_doc.py checks that
the doc still shows exactly what this produces.

    .venv/bin/python -m botclient.examples
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from games.part_du_chef import State
from games.part_du_chef.bots import get_bot

from .bare import BareBot
from .match import play_with_sessions
from .session import Exchange

STARTER_KIT = Path(__file__).resolve().parents[1] / "starter-kits" / "python" / "bot.py"
SEED = 11
PLAYERS = 3
KIT_SEAT = 1
EXAMPLE_PIZZA = 2  # the third pizza: the kit's first take of it is the example position


class _Recording(BareBot):
    """The kit as a child process, with every request and answer kept (no sandbox needed for the kit)."""

    def __init__(self, files: Path) -> None:
        super().__init__(files)
        self.conversation: list[tuple[dict[str, Any], Any]] = []

    def _exchange(self, message: dict[str, Any], timeout_s: float, reply: bool) -> Exchange:
        got = super()._exchange(message, timeout_s, reply)
        answer = json.loads(got.raw) if got.raw is not None else None
        self.conversation.append((message, answer))
        return got


def example_conversation() -> dict[str, Any]:
    """``start``, ``ready``, a mid-game ``act``, the kit's answer to it, and ``end``."""
    state = State.new(PLAYERS, SEED, marianne=True)
    kit = _Recording(STARTER_KIT)
    seats: list[Any] = [get_bot("greedy", seed=SEED * 8 + seat) for seat in range(PLAYERS)]
    seats[KIT_SEAT] = kit
    played = play_with_sessions(state, seats, {"marianne": True}, replacement_seed=SEED)
    if any(played.forfeited):
        raise RuntimeError(f"the starter kit forfeited the example game: {played.forfeit_reasons}")
    acts = [
        (message, answer)
        for message, answer in kit.conversation
        if message["type"] == "act"
        and message["observation"]["pizza"] == EXAMPLE_PIZZA
        and message["observation"]["phase"] == "take"
    ]
    start, ready = kit.conversation[0]
    end, _ = kit.conversation[-1]
    act, action = acts[0]
    return {"start": start, "ready": ready, "act": act, "action": action, "end": end}


def compact(value: Any, indent: int = 0, width: int = 100) -> str:
    """JSON with whatever fits on one line kept on one line, so that a whole observation stays readable."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {compact(v, indent + 2, width)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + compact(v, indent + 2, width) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def main() -> int:
    for name, message in example_conversation().items():
        print(f"<!-- example: {name} -->\n```json\n{compact(message)}\n```\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
