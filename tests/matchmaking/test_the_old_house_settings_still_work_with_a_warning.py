"""The house bots' settings are one family; the old names still work for a release, with a warning."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.checks import run_checks
from django.utils import timezone

from arena.models import Player
from matchmaking import matchmaker
from matchmaking.entries import enter_arena
from ratings.models import Rating
from tests.support import ROOT

SHOW = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps([s.ARENA_HOUSE_LADDER, s.ARENA_HOUSE_AFTER_SECONDS_BOTS, s.ARENA_HOUSE_AFTER_SECONDS_PEOPLE]))"
)


def settings_with(**env: str) -> tuple[list[object], str]:
    # A process of its own: the settings read the environment once, at load (a key, as `make run` gives one).
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "SECRET_KEY": "k" * 50, **env}
    for name in ("ARENA_HOUSE_LADDER", "ARENA_HOUSE_AFTER_SECONDS_BOTS", "ARENA_HOUSE_AFTER_SECONDS_PEOPLE"):
        if name not in env:
            environment.pop(name, None)
    done = subprocess.run(
        [sys.executable, "-c", SHOW], cwd=ROOT, env=environment, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


@pytest.mark.system
def test_the_old_environment_names_set_the_new_settings_and_say_so_once_at_load() -> None:
    values, stderr = settings_with(
        ARENA_BOT_HOUSE_BOTS="greedy,random", ARENA_BOT_HOUSE_AFTER_SECONDS="3", ARENA_HOUSE_BOTS_AFTER_SECONDS="7"
    )
    assert values == [["greedy", "random"], 3.0, 7.0]
    assert stderr.count("ARENA_BOT_HOUSE_BOTS is deprecated") == 1
    assert "use ARENA_HOUSE_AFTER_SECONDS_BOTS" in stderr and "use ARENA_HOUSE_AFTER_SECONDS_PEOPLE" in stderr
    # The people's old ladder is an alias too; a new name wins over an old one.
    values, _ = settings_with(ARENA_HOUSE_BOTS="search", ARENA_HOUSE_AFTER_SECONDS_BOTS="4")
    assert values == [["search"], 4.0, 30.0]
    values, stderr = settings_with(ARENA_HOUSE_LADDER="random", ARENA_BOT_HOUSE_BOTS="greedy")
    assert values[0] == ["random"] and "deprecated" not in stderr


def test_manage_check_warns_of_each_old_name_in_use(monkeypatch, settings) -> None:
    assert [m for m in run_checks() if m.id == "matchmaking.W001"] == []
    monkeypatch.setenv("ARENA_BOT_HOUSE_AFTER_SECONDS", "5")
    settings.ARENA_HOUSE_BOTS = ["greedy"]
    warnings = [m for m in run_checks() if m.id == "matchmaking.W001"]
    assert [m.msg for m in warnings] == [
        "the setting ARENA_BOT_HOUSE_AFTER_SECONDS is deprecated and will be removed in the next release; "
        "use ARENA_HOUSE_AFTER_SECONDS_BOTS",
        "the setting ARENA_HOUSE_BOTS is deprecated and will be removed in the next release; use ARENA_HOUSE_LADDER",
    ]


@pytest.mark.django_db
def test_a_settings_module_assigning_an_old_name_is_still_obeyed(settings) -> None:
    settings.ARENA_HOUSE_AFTER_SECONDS_BOTS = 3600
    settings.ARENA_BOT_HOUSE_AFTER_SECONDS = 0  # an old name, as a settings module of the last release set it
    owner = User.objects.create_user("old-settings")
    bot = Player.objects.create(name="old-settings-bot", kind="bot", builtin="random", owner=owner)
    Rating.objects.create(player=bot, game="part-du-chef", kind="bot", rating=1500.0, games=40)
    enter_arena(player_id=bot.id, game="part-du-chef", table_size=2, entered_by=owner)
    assert len(matchmaker.tick(timezone.now() + timedelta(seconds=1))) == 1
