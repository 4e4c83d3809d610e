"""Bots in every language: recognised by name, built once inside the sandbox, run with their runtime's limits."""

from __future__ import annotations

import io
import shutil
import stat
import subprocess
import zipfile
from pathlib import Path

import pytest

from botclient import SandboxedBot
from botclient.match import play_with_sessions
from botclient.protocol import OK
from games.part_du_chef import State
from games.part_du_chef.bots import get_bot
from sandbox import BundleRejected
from sandbox.build import BuildFailed, prepare_bot
from sandbox.languages import BUILD_INFO, LANGUAGES, BuildInfo, Language, check_toolchain, language_of_zip, launch
from tests.sandbox.conftest import FAKE_OBSERVATION, STARTER_KITS

KITS = {
    "python": "python/bot.py",
    "javascript": "javascript/bot.js",
    "c": "c/main.c",
    "cpp": "cpp/main.cpp",
    "rust": "rust/main.rs",
    "go": "go/main.go",
    "java": "java/Bot.java",
}


def _zip(path: Path, entries: dict[str, bytes | str], executable: tuple[str, ...] = ()) -> Path:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = ((0o100755 if name in executable else 0o100644) & 0xFFFF) << 16
            zf.writestr(info, data)
    path.write_bytes(buffer.getvalue())
    return path


def _cut(bot: SandboxedBot) -> dict[str, object]:
    result = bot.act(FAKE_OBSERVATION)
    assert result.status == OK, (result.status, result.error, bot.stderr_log)
    assert result.action is not None
    return result.action


@pytest.mark.parametrize("language", list(KITS))
def test_every_starter_kit_is_built_in_the_sandbox_answers_and_plays_its_games_in_one_process(
    tmp_path, sandbox, language
):
    kit = STARTER_KITS / KITS[language]
    info = prepare_bot(kit, tmp_path / "bot", sandbox)
    assert info.language.key == language
    assert BuildInfo.read(tmp_path / "bot") == info
    if info.language.compiled and language != "java":
        assert (tmp_path / "bot" / "main").stat().st_mode & stat.S_IXUSR
    bot = SandboxedBot(tmp_path / "bot", sandbox=sandbox, start_ms=5000)
    try:
        bot.start(0, 2, {})
        action = _cut(bot)
        assert action["type"] == "cut" and len(action["cuts"]) == 2  # type: ignore[arg-type]
    finally:
        bot.close()
    # Two whole games: the kit asks for more games, so the second is played by the first one's process.
    sandbox.kept.close_all()
    processes = []
    for seed in (1, 2):
        seated = SandboxedBot(tmp_path / "bot", sandbox=sandbox, start_ms=5000)
        play = play_with_sessions(State.new(2, seed), [seated, get_bot("greedy", seed=seed)])
        assert play.forfeited == [False, False], (play.forfeit_reasons, seated.stderr_log)
        assert seated.more_games
        processes.append(seated.process)
    assert processes[0] is processes[1]
    sandbox.kept.close_all()


def test_a_c_file_with_a_syntax_error_fails_its_build_with_the_compiler_s_message(tmp_path, sandbox):
    source = tmp_path / "broken.c"
    source.write_text("int main(void) {\n    return 0\n}\n")
    with pytest.raises(BuildFailed) as failed:
        prepare_bot(source, tmp_path / "bot", sandbox)
    assert str(failed.value).startswith("the C build failed: ")
    assert "main.c:2:13: error: expected" in failed.value.log and "before" in failed.value.log
    assert "/bot/" not in failed.value.log  # paths as the author knows them


def test_compiler_messages_are_capped(tmp_path, sandbox):
    source = tmp_path / "noisy.c"
    source.write_text("int main(void) {\n" + "".join(f"    int v{i} = undeclared_{i};\n" for i in range(2000)) + "}\n")
    with pytest.raises(BuildFailed) as failed:
        prepare_bot(source, tmp_path / "bot", sandbox)
    assert len(failed.value.log) <= 8000 and "more characters cut" in failed.value.log


def test_a_zip_holding_an_executable_main_keeps_its_execute_bit_and_plays(tmp_path, sandbox):
    program = tmp_path / "program"
    subprocess.run(["gcc", "-O2", "-static", "-o", str(program), str(STARTER_KITS / "c" / "main.c")], check=True)
    upload = _zip(tmp_path / "ready.zip", {"main": program.read_bytes(), "notes.txt": "mine"}, executable=("main",))
    info = prepare_bot(upload, tmp_path / "bot", sandbox)
    assert info.language.key == "binary"
    bot = SandboxedBot(tmp_path / "bot", sandbox=sandbox)
    try:
        bot.start(0, 2, {})
        assert _cut(bot)["cuts"] == [0, 6]
    finally:
        bot.close()


def test_a_ready_built_main_must_be_an_executable_x86_64_program(tmp_path, sandbox):
    script = _zip(tmp_path / "script.zip", {"main": "#!/bin/sh\necho hi\n"}, executable=("main",))
    with pytest.raises(BundleRejected, match="main is not a Linux x86-64 program"):
        prepare_bot(script, tmp_path / "a", sandbox)
    program = tmp_path / "program"
    shutil.copyfile("/usr/bin/true", program)
    not_executable = _zip(tmp_path / "plain.zip", {"main": program.read_bytes()})
    with pytest.raises(BundleRejected, match="chmod \\+x main"):
        prepare_bot(not_executable, tmp_path / "b", sandbox)


def test_a_zip_is_recognised_by_its_one_entry_file():
    assert language_of_zip(["main.rs", "board.rs", "README.md"]).key == "rust"
    assert language_of_zip(["Main.java", "Board.java"]).key == "java"
    assert language_of_zip(["main", "data/weights.bin"]).key == "binary"
    with pytest.raises(BundleRejected, match="main.c and main.py: keep exactly one entry file"):
        language_of_zip(["main.py", "main.c"])
    with pytest.raises(BundleRejected, match="no entry file"):
        language_of_zip(["src/main.c"])


def test_a_zip_of_several_source_files_is_built_whole(tmp_path, sandbox):
    upload = _zip(
        tmp_path / "two.zip",
        {
            "main.c": '#include "cut.h"\n#include <stdio.h>\nint main(void) { printf("%d\\n", cut()); return 0; }\n',
            "cut.h": "int cut(void);\n",
            "cut.c": "int cut(void) { return 6; }\n",
        },
    )
    prepare_bot(upload, tmp_path / "bot", sandbox)
    ran = sandbox.run(tmp_path / "bot", ["/bot/main"], timeout_s=10)
    assert ran.stdout == b"6\n"


def test_a_language_whose_toolchain_is_missing_is_refused_naming_it():
    fortran = Language("fortran", "Fortran", ".f90", ("gfortran",), ("/usr/bin/no-such-gfortran",), compiled=True)
    with pytest.raises(BundleRejected) as refused:
        check_toolchain(fortran)
    assert str(refused.value) == (
        "Fortran bots cannot run on this server: /usr/bin/no-such-gfortran missing (Debian packages: gfortran)"
    )
    for language in LANGUAGES.values():
        check_toolchain(language)  # this machine has every toolchain (scripts/test.sh installs them)


def test_numpy_is_importable_by_a_python_bot(tmp_path, sandbox):
    source = tmp_path / "np.py"
    source.write_text("import numpy\nprint(int(numpy.arange(5).sum()))\n")
    prepare_bot(source, tmp_path / "bot", sandbox)
    language, argv = launch(tmp_path / "bot", "/bot")
    ran = sandbox.run(tmp_path / "bot", argv, timeout_s=30, ro_binds=language.ro_binds())
    assert (ran.returncode, ran.stdout) == (0, b"10\n"), ran.stderr


def test_an_uploaded_build_info_file_is_never_trusted(tmp_path, sandbox):
    upload = _zip(
        tmp_path / "forged.zip",
        {"main.py": "print(1)\n", BUILD_INFO: '{"language": "java", "entry": "Evil.java"}'},
    )
    info = prepare_bot(upload, tmp_path / "bot", sandbox)
    assert (info.language.key, info.entry) == ("python", "main.py")
