"""Forming the ranked arena's tables, for bots and for people: pools, pairing, house bots, placement, waits."""
