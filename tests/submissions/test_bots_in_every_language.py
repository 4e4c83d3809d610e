"""Every language through the real stack: uploaded through the API, built and validated in the sandbox, then
a friendly and an arena game played to the end; the same file played locally by `part-du-chef simulate` gives
the same record."""

from __future__ import annotations

import io
import json
import subprocess
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.matches import create_match
from arena.models import Player
from botclient.local import LocalBots
from games.part_du_chef import cli
from sandbox import SandboxConfig
from submissions import actions
from submissions.models import BotSeat, BotVersion
from tests.submitted_bots import BASE_UID, SLOTS, STARTER_KITS, STATE_DIR

# Builds, sandboxed bots or a server of their own: processes beside the test run.
pytestmark = pytest.mark.system

KITS = {
    "python": "python/bot.py",
    "javascript": "javascript/bot.js",
    "c": "c/main.c",
    "cpp": "cpp/main.cpp",
    "rust": "rust/main.rs",
    "go": "go/main.go",
    "java": "java/Bot.java",
}
SEED = 4242


def _upload(client, name: str, filename: str, data: bytes) -> tuple[int, BotVersion]:
    created = client.post("/api/bots/", {"name": name, "file": SimpleUploadedFile(filename, data)}, format="multipart")
    assert created.status_code == 201, created.json()
    bot_id = created.json()["id"]
    version = BotVersion.objects.get(bot_id=bot_id, number=1)
    assert actions.run_validation(version.id) in ("active", "rejected")
    version.refresh_from_db()
    return bot_id, version


def _local_record(tmp_path: Path, kit: Path, monkeypatch, capsys) -> dict[str, object]:
    monkeypatch.setenv("PART_DU_CHEF_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "local.jsonl"
    resolver = LocalBots(
        sandbox_config=SandboxConfig(state_dir=Path(STATE_DIR), base_uid=BASE_UID, slots=SLOTS),
        # Generous limits: the record is compared, not the timing, and a starved machine may take seconds to
        # start a runtime (node, the JVM) or answer a move.
        move_ms=10_000,
        bank_ms=10_000,
        start_ms=30_000,
    )
    argv = ["simulate", "--players", "2", "--bots", f"{kit},greedy", "--games", "1", "--seed", str(SEED)]
    status = cli.main([*argv, "--out", str(out)], resolvers=[resolver], prog="part-du-chef")
    assert status == 0, capsys.readouterr().err
    return json.loads(out.read_text().splitlines()[0])


@pytest.mark.parametrize("language", list(KITS))
def test_a_starter_kit_is_uploaded_built_validated_and_plays_friendly_and_arena_games_as_it_plays_locally(
    client_for, tmp_path, monkeypatch, capsys, language
):
    alice = client_for("alice")
    kit = STARTER_KITS / KITS[language]
    bot_id, version = _upload(alice, f"kit-{language}", kit.name, kit.read_bytes())
    assert (version.status, version.reason) == ("active", "")
    assert [game["forfeited"] for game in version.log] == [False, False]

    greedy = Player.objects.get(builtin="greedy")
    made = alice.post(
        "/api/matches/",
        {"game": "part-du-chef", "kind": "friendly", "players": [bot_id, greedy.pk], "seed": SEED},
        format="json",
    )
    assert made.status_code == 201, made.json()
    match_id = made.json()["id"]
    assert actions.play_to_end(match_id, 120) == "finished"
    played = alice.get(f"/api/matches/{match_id}/").json()
    assert not any(result["forfeited"] for result in played["results"])
    seat = BotSeat.objects.get(match_id=match_id, seat=0)
    assert seat.version_id == version.id and all(move["status"] == "ok" for move in seat.moves)

    # An arena game too (rated), against a house bot.
    arena = create_match(game="part-du-chef", kind="arena", player_ids=[greedy.pk, bot_id], seed=SEED + 1)
    assert actions.play_to_end(arena.id, 120) == "finished"
    rated = alice.get(f"/api/matches/{arena.id}/").json()
    assert rated["rated"] and not any(result["forfeited"] for result in rated["results"])
    if language == "javascript":
        assert "Warning" not in seat.stderr  # node --no-expose-wasm: no flag warning in every bot's stderr

    server = alice.get(f"/api/matches/{match_id}/record/").json()
    local = _local_record(tmp_path, kit, monkeypatch, capsys)
    # The kits' choices are deterministic and greedy's too: the same deal gives the same game, move for move.
    assert local["seed"] == server["seed"] == SEED
    assert local["actions"] == server["actions"] and local["scores"] == server["scores"]


def test_a_c_file_with_a_syntax_error_is_rejected_with_the_compiler_s_message(client_for):
    alice = client_for("alice")
    bot_id, version = _upload(alice, "broken-c", "broken.c", b"int main(void) {\n    return 0\n}\n")
    assert version.status == "rejected"
    assert version.reason.startswith("the C build failed: main.c:2:13: error: expected")
    shown = alice.get(f"/api/bots/{bot_id}/versions/1/").json()
    assert shown["status"] == "rejected" and "main.c:2:13: error" in shown["log"][0]["build"]
    assert BotSeat.objects.filter(version=version).count() == 0  # no game was played


def test_a_zip_holding_an_executable_main_is_validated_and_plays(client_for, tmp_path):
    program = tmp_path / "main"
    subprocess.run(["gcc", "-O2", "-static", "-o", str(program), str(STARTER_KITS / "c" / "main.c")], check=True)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        info = zipfile.ZipInfo("main")
        info.external_attr = 0o100755 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        zf.writestr(info, program.read_bytes())
    _, version = _upload(client_for("alice"), "ready-built", "ready.zip", buffer.getvalue())
    assert (version.status, version.reason) == ("active", "")
    assert [game["forfeited"] for game in version.log] == [False, False]


def test_an_upload_in_an_unknown_language_is_refused_naming_the_accepted_ones(client_for):
    refused = client_for("alice").post(
        "/api/bots/", {"name": "cobol", "file": SimpleUploadedFile("bot.cob", b"DISPLAY 'HI'.")}, format="multipart"
    )
    assert refused.status_code == 400
    assert "'bot.cob' is not a bot program: a bot is one source file (.py, .js, .c, .cpp, .rs, .go, .java)" in str(
        refused.json()
    )
