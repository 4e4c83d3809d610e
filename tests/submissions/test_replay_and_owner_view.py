"""A finished server match seen through the bot's own eyes: the owner's decision-by-decision view, and
`part-du-chef replay` running the bot again on the very observations its seat saw."""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.test import Client

from arena.models import Player
from botclient import replay
from botclient.local import LocalBots
from games.part_du_chef import State, action_from_json
from sandbox import SandboxConfig
from submissions import actions
from tests.submitted_bots import BASE_UID, SLOTS, STARTER_KITS, STATE_DIR

KIT = STARTER_KITS / "c" / "main.c"


def _finished_match(client, bot_id: int) -> int:
    greedy, random = Player.objects.get(builtin="greedy"), Player.objects.get(builtin="random")
    made = client.post(
        "/api/matches/",
        {
            "game": "part-du-chef",
            "kind": "friendly",
            "players": [greedy.pk, bot_id, random.pk],
            "options": {"marianne": True},
            "seed": 77,
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert actions.play_to_end(made.json()["id"], 120) == "finished"
    return int(made.json()["id"])


def _replay(tmp_path: Path, monkeypatch, capsys, *argv: str) -> tuple[int, str]:
    monkeypatch.setenv("PART_DU_CHEF_CACHE", str(tmp_path / "cache"))
    resolver = LocalBots(
        sandbox_config=SandboxConfig(state_dir=Path(STATE_DIR), base_uid=BASE_UID, slots=SLOTS),
        move_ms=400,
        bank_ms=300,
        start_ms=3000,
    )
    capsys.readouterr()
    status = replay.main(list(argv), resolver=resolver)
    return status, capsys.readouterr().out


def test_the_owner_sees_each_decision_as_the_bot_saw_it_and_replay_reproduces_them(
    submit, client_for, users, tmp_path, monkeypatch, capsys
):
    bot = submit("c-eyes", KIT.read_bytes(), filename="main.c")
    alice = client_for("alice")
    match_id = _finished_match(alice, bot.pk)

    view = alice.get(f"/api/bots/{bot.pk}/matches/{match_id}/decisions/")
    assert view.status_code == 200, view.json()
    body = view.json()
    record = alice.get(f"/api/matches/{match_id}/record/").json()
    mine = [action for action in record["actions"] if action["seat"] == 1]
    assert (body["seat"], body["version"], body["start"]) == (1, 1, None)
    assert len(body["decisions"]) == len(mine) > 5
    state = State.new(3, 77, marianne=True)
    first = next(i for i, action in enumerate(record["actions"]) if action["seat"] == 1)
    for action in record["actions"][:first]:
        state.apply(action_from_json(action))
    assert body["decisions"][0]["observation"] == state.observation(1).to_json()
    for decision, action in zip(body["decisions"], mine, strict=True):
        assert decision["observation"]["seat"] == 1 and decision["status"] == "ok"
        assert decision["decided_by"] == "player" and decision["latency_ms"] >= 0
        assert decision["played"] == {k: v for k, v in action.items() if k not in ("seat", "pizza")}
    assert "hello from C" in body["stderr"]
    assert client_for("bob").get(f"/api/bots/{bot.pk}/matches/{match_id}/decisions/").status_code == 404

    # The same on the page, for the owner only.
    page = Client()
    page.force_login(users["alice"])
    shown = page.get(f"/my-bots/{bot.pk}/matches/{match_id}/")
    assert shown.status_code == 200
    html = shown.content.decode()
    assert html.count('<tr class="decision">') == len(mine) and "hello from C" in html
    assert f"part-du-chef replay {match_id} --bot FILE --seat 1" in html
    assert 'class="bot-eyes-link"' in page.get("/my-bots/").content.decode()
    stranger = Client()
    stranger.force_login(users["bob"])
    assert stranger.get(f"/my-bots/{bot.pk}/matches/{match_id}/").status_code == 404

    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    status, out = _replay(tmp_path, monkeypatch, capsys, str(path), "--bot", str(KIT), "--seat", "1")
    n = len(mine)
    assert (status, out) == (0, f"seat 1 (c-eyes): {n} decisions replayed, {n} the same, 0 different\n")

    other = STARTER_KITS / "python" / "bot.py"
    status, out = _replay(tmp_path, monkeypatch, capsys, str(path), "--bot", str(other), "--seat", "1")
    assert status == 1 and re.search(r"turn \d+: differs\n  played:  \{", out), out
    assert re.search(rf"seat 1 \(c-eyes\): {n} decisions replayed, \d+ the same, [1-9]\d* different\n$", out), out
