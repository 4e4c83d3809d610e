"""Preparing an uploaded bot to run: unpack, recognise its language, build it once, say how to run it.

``prepare_bot`` turns one source file, a ``.zip`` or a folder into a folder holding the program,
its build output (compiled languages) and ``BUILD_INFO`` (its language and entry file). The build
runs inside the sandbox (no network, the build limits below, ``/out`` its only writable folder
besides a private ``/tmp``) with the commands of ``sandbox.languages``; a failed build raises
``BuildFailed`` holding the compiler's messages, capped. The arena's workers cache the result per
upload (submissions.bundles), the local command per file content (botclient.local).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from .bundle import BundleLimits, check_python_upload, inspect_zip, unpack_zip
from .errors import BundleRejected
from .languages import (
    BUILD_INFO,
    LANGUAGES,
    READY_BUILT,
    BuildInfo,
    Language,
    build_command,
    check_toolchain,
    is_x86_64_elf,
    language_of_file,
    language_of_zip,
    sources,
)
from .runner import MiB, Sandbox, SandboxLimits

BUILD_LOG_CHARS = 8000  # the compiler's messages kept in a rejected version's log and reason


@dataclass(frozen=True)
class BuildLimits:
    seconds: float = 120.0
    sandbox: SandboxLimits = SandboxLimits(
        memory_bytes=2048 * MiB,  # address space: rustc and the JVM reserve much more than they use
        cpu_seconds=120,
        processes=32,
        file_bytes=64 * MiB,
        open_files=256,
        tmp_bytes=256 * MiB,
    )


class BuildFailed(BundleRejected):
    """The compiler refused the program (or ran out of its limits); ``log`` holds its messages."""

    def __init__(self, message: str, log: str) -> None:
        super().__init__(message)
        self.log = log


def prepare_bot(
    upload: Path,
    dest: Path,
    sandbox: Sandbox | None,
    limits: BundleLimits | None = None,
    *,
    filename: str | None = None,
    build_limits: BuildLimits | None = None,
) -> BuildInfo:
    """Make ``dest`` (must not exist) a runnable bot folder from a file, zip or folder at ``upload``.

    ``sandbox`` None builds bare, with the caller's rights (``part-du-chef --no-sandbox`` only).
    ``filename`` is the upload's original name when ``upload`` is stored under another one.
    """
    limits = limits or BundleLimits()
    name = filename or upload.name
    if upload.is_dir():
        shutil.copytree(upload, dest, symlinks=True)
        lang, entry = _entry_of_folder(dest)
    elif Path(name).suffix.lower() == ".zip" or zipfile.is_zipfile(upload):
        if sandbox is None:
            unzip_bare(upload, dest, limits)
        else:
            unpack_zip(upload, dest, sandbox, limits)
        lang, entry = _entry_of_folder(dest)
    else:
        if upload.stat().st_size > limits.upload_bytes:
            raise BundleRejected(f"the file is {upload.stat().st_size} bytes; the limit is {limits.upload_bytes}")
        lang = language_of_file(name)
        text = check_python_upload(upload.read_bytes(), limits)
        entry = Path(name).name if lang.key == "java" else f"main{lang.extension}"
        dest.mkdir(parents=True)
        (dest / entry).write_text(text, encoding="utf-8")
    (dest / BUILD_INFO).unlink(missing_ok=True)  # only ours is ever read
    check_toolchain(lang)
    if lang.key == "binary":
        _check_ready_built(dest / READY_BUILT)
    elif lang.compiled:
        build(dest, lang, entry, sandbox, build_limits or BuildLimits())
    info = BuildInfo(lang, entry)
    info.write(dest)
    return info


def _entry_of_folder(folder: Path) -> tuple[Language, str]:
    lang = language_of_zip([p.name for p in folder.iterdir() if p.is_file()])
    entry = READY_BUILT if lang.key == "binary" else ("Main.java" if lang.key == "java" else f"main{lang.extension}")
    return lang, entry


def _check_ready_built(path: Path) -> None:
    with open(path, "rb") as fh:
        head = fh.read(64)
    if not is_x86_64_elf(head):
        raise BundleRejected("main is not a Linux x86-64 program (an ELF executable, e.g. statically linked)")
    if not path.stat().st_mode & stat.S_IXUSR:
        raise BundleRejected("main is not executable: set its execute bit before zipping (chmod +x main)")


def build(folder: Path, lang: Language, entry: str, sandbox: Sandbox | None, limits: BuildLimits) -> None:
    """Compile the program in ``folder``; the output joins it. Raises BuildFailed with the messages."""
    files = sources(folder, "") if lang.key != "go" else sources(folder, ".go")
    with tempfile.TemporaryDirectory(prefix="bot-build-") as tmp:
        out = Path(tmp, "out")
        if sandbox is None:
            out.mkdir()
            argv = build_command(lang, entry, files, str(folder), str(out))
            returncode, output, timed_out = _build_bare(argv, folder, limits.seconds)
        else:
            argv = build_command(lang, entry, files, "/bot", "/out")
            result = sandbox.run(
                folder,
                argv,
                timeout_s=limits.seconds,
                output_cap=64 * 1024,
                collect_out=out,
                limits=limits.sandbox,
                ro_binds=lang.ro_binds(),
            )
            returncode, timed_out = result.returncode, result.timed_out
            output = (result.stdout + result.stderr).decode("utf-8", errors="replace")
        log = _cap(output.replace("/bot/", ""))
        if timed_out:
            raise BuildFailed(f"the {lang.name} build took longer than {limits.seconds:.0f} s", log)
        if returncode != 0:
            first = next((line for line in log.splitlines() if "error" in line.lower()), "")
            detail = f": {first.strip()}" if first else f" (exit code {returncode})"
            raise BuildFailed(f"the {lang.name} build failed{detail}", log)
        if not out.is_dir() or not any(out.iterdir()):
            raise BuildFailed(f"the {lang.name} build produced nothing", log)
        _merge(out, folder)


def _build_bare(argv: list[str], cwd: Path, seconds: float) -> tuple[int, str, bool]:
    try:
        done = subprocess.run(
            argv, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, timeout=seconds, check=False
        )
    except subprocess.TimeoutExpired:
        return -1, "", True
    except OSError as exc:
        return -1, f"cannot start the compiler: {exc}", False
    return done.returncode, (done.stdout + done.stderr).decode("utf-8", errors="replace"), False


def _merge(out: Path, folder: Path) -> None:
    """Copy the build output (regular files and folders only) into the bot's folder."""
    for dirpath, dirnames, filenames in os.walk(out, followlinks=False):
        rel = Path(dirpath).relative_to(out)
        for name in dirnames:
            (folder / rel / name).mkdir(exist_ok=True)
        for name in filenames:
            src = Path(dirpath, name)
            st = src.lstat()
            if not stat.S_ISREG(st.st_mode):
                raise BundleRejected(f"the build made {rel / name}, which is not a regular file")
            target = folder / rel / name
            target.unlink(missing_ok=True)
            shutil.copyfile(src, target, follow_symlinks=False)
            os.chmod(target, 0o755 if st.st_mode & stat.S_IXUSR else 0o644)


def _cap(text: str) -> str:
    text = text.strip()
    if len(text) <= BUILD_LOG_CHARS:
        return text
    return text[: BUILD_LOG_CHARS - 60] + f"\n[... {len(text) - BUILD_LOG_CHARS + 60} more characters cut]"


def unzip_bare(path: Path, dest: Path, limits: BundleLimits) -> None:
    """Without the sandbox: the same central-directory checks as an upload, then a plain extraction."""
    infos = inspect_zip(path, limits)
    dest.mkdir(parents=True)
    written = 0
    with zipfile.ZipFile(path) as archive:
        for info in infos:
            if info.is_dir():
                (dest / info.filename).mkdir(parents=True, exist_ok=True)
                continue
            target = dest / info.filename
            target.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(info) as source, open(target, "wb") as sink:
                while chunk := source.read(65536):
                    written += len(chunk)
                    if written > limits.unpacked_bytes:
                        raise BundleRejected("zip bomb refused: the unpacked files exceed the limits")
                    sink.write(chunk)
            if (info.external_attr >> 16) & stat.S_IXUSR:
                os.chmod(target, 0o755)


__all__ = ["LANGUAGES", "BuildFailed", "BuildLimits", "build", "prepare_bot"]
