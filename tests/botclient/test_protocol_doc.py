"""docs/bot-protocol.md shows what the code really sends and applies: its example conversation is the one
`python -m botclient.examples` records from a real game, its field tables name the fields of those messages,
and its limits table gives the values of the settings and of the protocol client."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings

from arena import runner
from botclient import stdio
from botclient.examples import example_conversation
from botclient.protocol import ANSWER_LOG_BYTES, MAX_MESSAGE_BYTES, decode_reply
from submissions import actions

from .conftest import ROOT

DOC = (ROOT / "docs" / "bot-protocol.md").read_text()


def _examples() -> dict[str, object]:
    blocks = re.findall(r"<!-- example: (\w+) -->\n```json\n(.*?)\n```", DOC, re.S)
    return {name: json.loads(text) for name, text in blocks}


def _table_fields(heading: str) -> list[str]:
    section = re.split(r"\n#{2,3} ", DOC.split(heading, 1)[1], maxsplit=1)[0]
    return re.findall(r"^\| `(\w+)` \|", section, re.M)


def _limits() -> dict[str, str]:
    section = DOC.split("## Limits", 1)[1].split("\n## ", 1)[0]
    return dict(re.findall(r"^\| ([^|]+?) \| ([^|]+?) \|$", section, re.M)[1:])


@pytest.mark.system
def test_the_documented_conversation_is_exactly_what_a_real_game_sends_and_answers():
    assert _examples() == example_conversation(), "regenerate with: .venv/bin/python -m botclient.examples"


def test_the_field_tables_name_exactly_the_fields_of_the_documented_messages():
    examples = _examples()
    assert _table_fields("### `start`") == list(examples["start"])
    assert _table_fields("### `act`") == list(examples["act"])
    assert _table_fields("### `end`") == list(examples["end"])
    assert _table_fields("## The observation") == list(examples["act"]["observation"])


def test_the_documented_answers_are_accepted_by_the_protocol_client():
    examples = _examples()
    for name, expect in (("ready", "ready"), ("action", "action")):
        raw = json.dumps(examples[name]).encode()
        assert decode_reply(raw, expect) == (examples[name], None)


def test_the_limits_table_gives_the_values_the_service_applies():
    assert _limits() == {
        "per decision": f"{settings.ARENA_BOT_MOVE_MS / 1000:g} s",
        "time bank per match": f"{settings.ARENA_BOT_BANK_MS / 1000:g} s",
        "start, up to `ready`": f"{settings.ARENA_BOT_START_MS / 1000:g} s",
        "one message, either way": f"{MAX_MESSAGE_BYTES} bytes",
        "stdout per match (uploaded bots)": f"{stdio.STDOUT_SESSION_CAP // (1024 * 1024)} MiB",
        "wall clock per match (uploaded bots)": f"{stdio.limits.WALL_S / 60:g} min",
        "time given back for waiting on a busy machine's CPU (uploaded bots)": (
            f"up to {stdio.limits.CPU_WAIT_CREDIT:g} times the time you had"
        ),
        "stderr kept per decision in the match log": f"the last {runner.MOVE_STDERR_CHARS} characters",
        "stderr kept per match in the match log": f"the last {runner.SEAT_STDERR_CHARS} characters",
        "stderr per validation game in the version's log": f"the last {actions.LOG_STDERR_CHARS} characters",
        "your answer kept for an invalid or illegal decision": f"the first {ANSWER_LOG_BYTES} bytes",
        "upload": f"{settings.ARENA_BOT_UPLOAD_MAX_BYTES // (1024 * 1024)} MiB",
    }
    assert f"up to {stdio.STDERR_READ_CAP // (1024 * 1024)} MiB per match" in DOC
