"""Settings renamed in this release: the old names still work, with a warning, until the next one.

The house bots' settings of the two arena pools were two look-alike families
(`ARENA_HOUSE_BOTS*` for people, `ARENA_BOT_HOUSE_*` for bots); they are one family now.
`config/settings.py` reads an old name from the environment when the new one is not set and logs
that once; `manage.py check` reports it (matchmaking.W001); and a settings module that still
assigns an old name is honoured by the matchmaker (`matchmaking.house.setting`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

log = logging.getLogger(__name__)

# old name -> new name. Two old ladders map to the one ladder; the bots' one wins when both are set.
RENAMED: Mapping[str, str] = {
    "ARENA_BOT_HOUSE_BOTS": "ARENA_HOUSE_LADDER",
    "ARENA_HOUSE_BOTS": "ARENA_HOUSE_LADDER",
    "ARENA_BOT_HOUSE_AFTER_SECONDS": "ARENA_HOUSE_AFTER_SECONDS_BOTS",
    "ARENA_HOUSE_BOTS_AFTER_SECONDS": "ARENA_HOUSE_AFTER_SECONDS_PEOPLE",
}


def old_names(new: str) -> list[str]:
    return [old for old, renamed in RENAMED.items() if renamed == new]


def deprecation(old: str) -> str:
    return f"the setting {old} is deprecated and will be removed in the next release; use {RENAMED[old]}"


def env_name(new: str) -> str:
    """The environment variable to read for `new`: itself when set, else an old name that is set
    (logged once, at settings load), else itself (its default applies)."""
    if os.environ.get(new, "").strip():
        return new
    for old in old_names(new):
        if os.environ.get(old, "").strip():
            log.warning("%s", deprecation(old))
            return old
    return new


def old_names_in_environment() -> list[str]:
    return [old for old in RENAMED if os.environ.get(old, "").strip()]
