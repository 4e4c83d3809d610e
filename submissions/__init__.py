"""Bots submitted by users: versions, validation, per-seat move logs and arena suspension."""
