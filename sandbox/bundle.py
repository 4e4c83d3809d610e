"""Checking and unpacking an uploaded bot (one source file, or a ``.zip`` holding its entry file).

A zip goes through two gates.  First the worker reads only the zip's central
directory (no decompression) and refuses anything suspicious: too big, too
many entries, declared sizes or compression ratios of a zip bomb, absolute
paths, ``..``, symlinks or other special files, encryption, exotic
compression, duplicates, no entry file (``main.py``, ``main.c``, ... see
``sandbox.languages``).  Only then is it decompressed, and
that happens inside the sandbox (``unzip_worker.py``, same checks again, byte
counting while it writes, file-size and tmpfs limits, a time limit), so a
decompressor bug or a lying header cannot touch the worker.  What comes back
is copied as plain regular files only.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .errors import BundleRejected
from .languages import language_of_zip
from .runner import Sandbox

KiB = 1024
MiB = 1024 * KiB


@dataclass(frozen=True)
class BundleLimits:
    upload_bytes: int = 1 * MiB
    entries: int = 200
    unpacked_bytes: int = 8 * MiB
    # Source code compresses about 3-10x; zip bombs 1000x and more.
    ratio: int = 100
    ratio_min_bytes: int = 64 * KiB
    name_length: int = 200
    unpack_seconds: float = 20.0


def check_python_upload(data: bytes, limits: BundleLimits | None = None) -> str:
    """Validate a single-file upload; returns its text."""
    limits = limits or BundleLimits()
    if len(data) > limits.upload_bytes:
        raise BundleRejected(f"the file is {len(data)} bytes; the limit is {limits.upload_bytes}")
    if not data.strip():
        raise BundleRejected("the file is empty")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BundleRejected(f"the file is not UTF-8 text (byte {exc.start})") from exc


def inspect_zip(path: Path, limits: BundleLimits | None = None) -> list[zipfile.ZipInfo]:
    """Check a zip's central directory without decompressing anything."""
    limits = limits or BundleLimits()
    size = path.stat().st_size
    if size > limits.upload_bytes:
        raise BundleRejected(f"the zip is {size} bytes; the limit is {limits.upload_bytes}")
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise BundleRejected(f"not a readable zip file: {exc}") from exc
    return check_entries(infos, limits)


def check_entries(infos: list[zipfile.ZipInfo], limits: BundleLimits) -> list[zipfile.ZipInfo]:
    if len(infos) > limits.entries:
        raise BundleRejected(f"the zip has {len(infos)} entries; the limit is {limits.entries}")
    seen: set[str] = set()
    total = 0
    for info in infos:
        name = info.filename
        _check_name(name, limits)
        key = name.rstrip("/")
        if key in seen:
            raise BundleRejected(f"the zip holds {name!r} twice")
        seen.add(key)
        mode = info.external_attr >> 16
        if stat.S_IFMT(mode) not in (0, stat.S_IFREG, stat.S_IFDIR):
            kind = "a symlink" if stat.S_ISLNK(mode) else "a special file"
            raise BundleRejected(f"{name!r} is {kind}; only regular files and folders are accepted")
        if info.flag_bits & 0x1:
            raise BundleRejected(f"{name!r} is encrypted")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise BundleRejected(f"{name!r} uses an unsupported compression method ({info.compress_type})")
        total += info.file_size
        if total > limits.unpacked_bytes:
            raise BundleRejected(f"zip bomb refused: the zip expands to more than {limits.unpacked_bytes} bytes")
        if info.file_size >= limits.ratio_min_bytes:
            ratio = info.file_size / max(info.compress_size, 1)
            if ratio > limits.ratio:
                raise BundleRejected(
                    f"zip bomb refused: {name!r} expands {ratio:.0f} times (the limit is {limits.ratio})"
                )
    language_of_zip(sorted(seen))
    return infos


def _check_name(name: str, limits: BundleLimits) -> None:
    if not name or len(name) > limits.name_length:
        raise BundleRejected(f"entry name {name[:40]!r}... is empty or too long")
    if "\\" in name or "\x00" in name or ":" in name:
        raise BundleRejected(f"entry name {name!r} has a forbidden character")
    pure = PurePosixPath(name)
    if pure.is_absolute() or any(part in ("..", ".", "") for part in name.rstrip("/").split("/")):
        raise BundleRejected(f"entry {name!r} points outside the bot's folder")


def unpack_zip(path: Path, dest: Path, sandbox: Sandbox, limits: BundleLimits | None = None) -> Path:
    """Check then decompress ``path`` inside the sandbox into ``dest`` (created, must not exist)."""
    limits = limits or BundleLimits()
    inspect_zip(path, limits)
    with tempfile.TemporaryDirectory(prefix="arena-unpack-") as tmp:
        staged = Path(tmp, "in")
        staged.mkdir()
        shutil.copyfile(path, staged / "upload.zip")
        shutil.copyfile(Path(__file__).with_name("unzip_worker.py"), staged / "unzip_worker.py")
        result_dir = Path(tmp, "result")
        argv = [
            sandbox.config.python,
            "-I",
            "-S",
            "/bot/unzip_worker.py",
            "/bot/upload.zip",
            "/out",
            str(limits.entries),
            str(limits.unpacked_bytes),
        ]
        result = sandbox.run(staged, argv, timeout_s=limits.unpack_seconds, collect_out=result_dir)
        if result.timed_out:
            raise BundleRejected(f"unpacking took longer than {limits.unpack_seconds:.0f} s")
        if result.returncode != 0:
            message = result.stderr.decode(errors="replace").strip().splitlines()
            raise BundleRejected(message[-1] if message else f"unpacking failed (exit {result.returncode})")
        _copy_regular(result_dir, dest, limits)
    return dest


def _copy_regular(source: Path, dest: Path, limits: BundleLimits) -> None:
    dest.mkdir(parents=True)
    count = total = 0
    for dirpath, dirnames, filenames in os.walk(source, followlinks=False):
        rel = Path(dirpath).relative_to(source)
        for name in dirnames:
            if Path(dirpath, name).is_symlink():
                raise BundleRejected(f"{rel / name} is a symlink")
            (dest / rel / name).mkdir()
        for name in filenames:
            src = Path(dirpath, name)
            st = src.lstat()
            if not stat.S_ISREG(st.st_mode):
                raise BundleRejected(f"{rel / name} is not a regular file")
            count += 1
            total += st.st_size
            if count > limits.entries or total > limits.unpacked_bytes:
                raise BundleRejected("zip bomb refused: the unpacked files exceed the limits")
            shutil.copyfile(src, dest / rel / name, follow_symlinks=False)
            if st.st_mode & stat.S_IXUSR:
                os.chmod(dest / rel / name, 0o755)  # a ready-built program keeps its execute bit
