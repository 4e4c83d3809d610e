"""Uploaded bots: one .py file or a .zip holding main.py, unpacked in the sandbox; bombs refused."""

from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path

import pytest

from botclient import OK, SandboxedBot
from sandbox import BundleRejected
from sandbox.build import prepare_bot
from sandbox.bundle import inspect_zip
from sandbox.slots import processes_of

from .conftest import FAKE_OBSERVATION, TEST_BASE_UID, TEST_SLOTS


def _zip(path: Path, entries: dict[str, bytes | str], method: int = zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(path, "w", method) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return path


MAIN = """import json, sys
from helpers.answer import ANSWER
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif msg["type"] == "act":
        print(json.dumps(ANSWER), flush=True)
"""


def test_a_zip_with_several_modules_is_unpacked_in_the_sandbox_and_plays(tmp_path, sandbox):
    upload = _zip(
        tmp_path / "bot.zip",
        {"main.py": MAIN, "helpers/__init__.py": "", "helpers/answer.py": 'ANSWER = {"type": "cut", "cuts": [1, 7]}\n'},
    )
    files = tmp_path / "bot"
    prepare_bot(upload, files, sandbox)
    assert sorted(p.relative_to(files).as_posix() for p in files.rglob("*.py")) == [
        "helpers/__init__.py",
        "helpers/answer.py",
        "main.py",
    ]
    bot = SandboxedBot(files, sandbox=sandbox)
    bot.start(0, 2, {})
    result = bot.act(FAKE_OBSERVATION)
    bot.close()
    assert result.status == OK and result.action == {"type": "cut", "cuts": [1, 7]}


def test_a_single_python_file_becomes_main_py(tmp_path, sandbox):
    upload = tmp_path / "mybot.py"
    upload.write_text("print('hi')\n")
    files = tmp_path / "bot"
    prepare_bot(upload, files, sandbox)
    assert (files / "main.py").read_text() == "print('hi')\n"


def test_a_zip_bomb_is_refused_before_anything_is_decompressed(tmp_path, sandbox):
    upload = _zip(tmp_path / "bomb.zip", {"main.py": "print(1)\n", "payload.bin": b"\0" * (64 * 1024 * 1024)})
    assert upload.stat().st_size < 200_000
    with pytest.raises(BundleRejected, match="zip bomb refused"):
        prepare_bot(upload, tmp_path / "bot", sandbox)
    assert not (tmp_path / "bot").exists()


def test_a_highly_compressed_entry_is_refused_as_a_bomb(tmp_path):
    upload = _zip(tmp_path / "ratio.zip", {"main.py": "print(1)\n", "zeros.bin": b"\0" * (4 * 1024 * 1024)})
    with pytest.raises(BundleRejected, match="expands .* times"):
        inspect_zip(upload)


def test_a_zip_whose_headers_lie_about_sizes_is_refused_by_the_sandboxed_unpacker(tmp_path, sandbox):
    upload = _zip(tmp_path / "liar.zip", {"main.py": "print(1)\n", "data.bin": b"\0" * (4 * 1024 * 1024)})
    raw = bytearray(upload.read_bytes())
    with zipfile.ZipFile(io.BytesIO(bytes(raw))) as zf:
        info = zf.getinfo("data.bin")
    struct.pack_into("<I", raw, info.header_offset + 22, 1000)  # local header: uncompressed size
    central = raw.find(b"PK\x01\x02" + raw[info.header_offset + 4 : info.header_offset + 6], 0)
    while raw[central + 46 : central + 46 + 8] != b"data.bin":
        central = raw.find(b"PK\x01\x02", central + 4)
    struct.pack_into("<I", raw, central + 24, 1000)  # central directory: uncompressed size
    upload.write_bytes(bytes(raw))
    inspect_zip(upload)  # the directory alone looks harmless
    with pytest.raises(BundleRejected, match="cannot unpack the zip"):
        prepare_bot(upload, tmp_path / "bot", sandbox)
    for uid in range(TEST_BASE_UID, TEST_BASE_UID + TEST_SLOTS):
        assert processes_of(uid) == []


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("../escape.py", "outside the bot's folder"),
        ("/etc/cron.d/evil", "outside the bot's folder"),
        ("sub/../../escape.py", "outside the bot's folder"),
        ("C:\\evil.py", "forbidden character"),
    ],
)
def test_paths_leaving_the_bot_folder_are_refused(tmp_path, name, message):
    upload = _zip(tmp_path / "trav.zip", {"main.py": "print(1)\n", name: "x"})
    with pytest.raises(BundleRejected, match=message):
        inspect_zip(upload)


def test_symlinks_in_a_zip_are_refused(tmp_path):
    upload = tmp_path / "link.zip"
    with zipfile.ZipFile(upload, "w") as zf:
        zf.writestr("main.py", "print(1)\n")
        link = zipfile.ZipInfo("settings.py")
        link.external_attr = (0o120777 << 16) | 0
        zf.writestr(link, "/work/main/config/settings.py")
    with pytest.raises(BundleRejected, match="symlink"):
        inspect_zip(upload)


def test_a_zip_without_main_py_is_refused(tmp_path):
    with pytest.raises(BundleRejected, match="main.py"):
        inspect_zip(_zip(tmp_path / "nomain.zip", {"bot.py": "print(1)\n"}))


def test_too_many_entries_are_refused(tmp_path):
    entries = {f"m{i}.py": "" for i in range(300)} | {"main.py": "print(1)\n"}
    with pytest.raises(BundleRejected, match="entries"):
        inspect_zip(_zip(tmp_path / "many.zip", entries))


def test_a_file_that_is_not_a_zip_or_text_is_refused(tmp_path, sandbox):
    upload = tmp_path / "bot.py"
    upload.write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(BundleRejected, match="UTF-8"):
        prepare_bot(upload, tmp_path / "bot", sandbox)
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(BundleRejected, match="not a readable zip"):
        prepare_bot(broken, tmp_path / "bot2", sandbox)


def test_bot_files_holding_a_symlink_are_never_staged(tmp_path, sandbox):
    files = tmp_path / "bot"
    files.mkdir()
    (files / "main.py").write_text("print(1)\n")
    (files / "shadow").symlink_to("/etc/shadow")
    before = Path("/etc/shadow").stat()
    with pytest.raises(BundleRejected, match="symlink"):
        SandboxedBot(files, sandbox=sandbox)
    after = Path("/etc/shadow").stat()
    assert (after.st_mode, after.st_gid) == (before.st_mode, before.st_gid)
