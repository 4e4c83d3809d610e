"""Safe retries: unsafe requests run in one transaction that also stores the answer to their Idempotency-Key."""
