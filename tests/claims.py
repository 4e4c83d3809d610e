"""Claims as the tests take them by hand: one match for one attempt, or a match with a batch of others.

The service claims through `arena.claims.claim_and_read`, `claim_queued` and `claim_group`; these
helpers take the same leases, so a test can hold a match the way a play task would.
"""

from __future__ import annotations

from arena.claims import MATCH_LEASE, claim_and_read, give_up


def claim_match(match_id: int) -> int | None:
    """Take the match for one attempt. Returns the attempt number, or None if not ours to play."""
    attempt, exhausted = MATCH_LEASE.claim(match_id)
    if exhausted is not None:
        give_up(match_id, exhausted, "the last attempt did not finish before its lease expired")
    return attempt


def claim_batch(match_id: int, extra: int) -> list[tuple[int, int]]:
    """Claim match_id and up to `extra` other queued built-in bot matches: [(match id, attempt)]."""
    return claim_and_read(match_id, extra).claims
