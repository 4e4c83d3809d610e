"""common/outages.py `retrying` begins a try only if its connection attempt, bounded by the connect timeout
(ARENA_DB_CONNECT_TIMEOUT), can end before the deadline: a cut link never holds a retry past `until`."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.db import OperationalError

from common.outages import retrying

pytestmark = pytest.mark.unit


def test_no_try_begins_that_its_connect_could_carry_past_the_deadline(settings: Any) -> None:
    settings.ARENA_DB_CONNECT_TIMEOUT = 3
    tries: list[float] = []

    def step() -> str:
        tries.append(time.monotonic())
        raise OperationalError("connection refused")

    with pytest.raises(OperationalError):
        retrying(step, until=time.monotonic() + 2.0, what="reading")
    assert len(tries) == 1


def test_a_try_that_fits_before_the_deadline_is_made(settings: Any) -> None:
    settings.ARENA_DB_CONNECT_TIMEOUT = 1
    tries: list[int] = []

    def step() -> str:
        tries.append(1)
        if len(tries) == 1:
            raise OperationalError("connection refused")
        return "read"

    assert retrying(step, until=time.monotonic() + 30.0, what="reading") == "read"
