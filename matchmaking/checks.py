"""`manage.py check` warns of the house bots' settings under their old names (common/renamed_settings.py)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Warning

from common.renamed_settings import RENAMED, deprecation, old_names_in_environment


def renamed_settings(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """One warning per old name in use, in the environment or assigned by a settings module."""
    used = set(old_names_in_environment()) | {old for old in RENAMED if hasattr(settings, old)}
    return [
        Warning(deprecation(old), hint=f"rename {old} to {RENAMED[old]}", id="matchmaking.W001") for old in sorted(used)
    ]
