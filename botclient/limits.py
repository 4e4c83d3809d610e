"""The protocol v1 limits a bot plays under, the same in the arena and on the local command line.

The arena's settings (ARENA_BOT_MOVE_MS, ARENA_BOT_BANK_MS, ARENA_BOT_START_MS) default to these, so a bot
tried locally meets the clock it will meet once submitted.
"""

from __future__ import annotations

MOVE_MS = 1000  # per decision
BANK_MS = 10_000  # per match, drawn on when a decision runs over MOVE_MS
START_MS = 5000  # from "start" written to a running process (a hosted bot: from resolving it) to {"type": "ready"}
WALL_S = 600.0  # a sandboxed bot's whole match, whatever it is asked
# Time a bot's process spent ready to run but waiting for a CPU (the machine busy with others) is given back,
# up to this many times the time it had: a bot is not charged for the server's slowness, and a bot whose own
# threads crowd the CPU gains a bounded amount at most.
CPU_WAIT_CREDIT = 3.0
