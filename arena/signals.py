"""Signals and hooks other apps use without the match core knowing them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from django.dispatch import Signal

# Sent inside the transaction that commits a match result (kwargs: match, seats, played), so what
# receivers write is committed with the result or not at all. Receivers may set the seats'
# rating_before/rating_after; the core writes the seats after every receiver ran.
match_committed = Signal()

# A batch hook is entered (with the [(match, seats)] of the batch) inside the transaction that
# commits several results, before any match_committed, and left after the last one: a feature
# takes its locks for the whole batch there, in one order, and writes what it gathered on leaving.
BatchHook = Callable[[Sequence[tuple[Any, list[Any]]]], AbstractContextManager[None]]
_batch_hooks: dict[str, BatchHook] = {}


def register_batch_hook(name: str, hook: BatchHook) -> None:
    _batch_hooks[name] = hook


def batch_hooks() -> list[BatchHook]:
    return list(_batch_hooks.values())
