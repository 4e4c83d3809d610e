"""What each hostile bot of tests/hostile_bots earns under the tests' short limits (400 ms a move, a 300 ms bank).

One table for the arena's matches (tests/submissions/test_hostile_matches.py) and the local command line
(tests/botclient/test_local_hostile_bots.py): a bot forfeits the same way in both, by construction of the test.
"""

from __future__ import annotations

# (bot file stem, forfeit status, words found in the error or the bot's stderr)
HOSTILE_OUTCOMES = [
    ("fork_bomb", "timeout", "no reply within 700 ms"),
    ("memory_hog", "crash", "MemoryError"),
    ("endless_loop", "timeout", "no reply within 700 ms"),
    ("busy_sleep", "timeout", "no reply within 700 ms"),
    ("stdout_flood", "invalid", "65536"),
    ("garbage_json", "invalid", "not valid JSON"),
    ("illegal_move", "illegal", "must cut"),
]
