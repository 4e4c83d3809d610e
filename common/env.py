"""Typed readers for settings taken from the environment, each with a local default."""

from __future__ import annotations

import os
from typing import TypeVar

from django.core.exceptions import ImproperlyConfigured

_Number = TypeVar("_Number", int, float)


def env_str(name: str, default: str) -> str:
    value = os.environ.get(name)
    return default if value is None or value == "" else value


def env_int(name: str, default: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer setting; a value outside [minimum, maximum] is refused, naming the range, never clamped."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return _within(name, default, minimum, maximum)
    try:
        number = int(value)
    except ValueError as exc:
        raise ValueError(f"{name} must be an integer, got {value!r}") from exc
    return _within(name, number, minimum, maximum)


def env_float(name: str, default: float, *, minimum: float | None = None, maximum: float | None = None) -> float:
    """A number setting; a value outside [minimum, maximum] is refused, naming the range, never clamped."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return _within(name, default, minimum, maximum)
    try:
        number = float(value)
    except ValueError as exc:
        raise ValueError(f"{name} must be a number, got {value!r}") from exc
    return _within(name, number, minimum, maximum)


def _within(name: str, value: _Number, minimum: _Number | None, maximum: _Number | None) -> _Number:
    # An operator's value that the service would not use as given fails the start, saying what it may be.
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        if maximum is None:
            allowed = f"at least {minimum}"
        elif minimum is None:
            allowed = f"at most {maximum}"
        else:
            allowed = f"between {minimum} and {maximum}"
        raise ImproperlyConfigured(f"{name} must be {allowed}, got {value}")
    return value


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ValueError(f"{name} must be a boolean (1/0, true/false), got {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]
