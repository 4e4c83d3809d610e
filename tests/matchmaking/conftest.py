"""The people's pool seats people: the play tests' fixtures for people and their tables."""

from __future__ import annotations

from tests.play.conftest import person, table

__all__ = ["person", "table"]
