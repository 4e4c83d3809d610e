"""Uploaded bot files: checked when they arrive, unpacked and built (in the sandbox) when first played.

The bytes are stored in the database with their version (capped at ARENA_BOT_UPLOAD_MAX_BYTES),
so every worker can play any version without shared storage. Each worker machine prepares a
bundle once (unpacks it, builds a compiled language: sandbox.build) into ARENA_BOT_CACHE_DIR/<sha256>/
and reuses that folder for later matches; validation is the first to prepare it, so a build that fails
rejects the version.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from sandbox import BundleRejected, Sandbox
from sandbox.build import prepare_bot
from sandbox.bundle import BundleLimits, check_python_upload, inspect_zip
from sandbox.languages import BUILD_INFO, Language, check_toolchain, language_of_file, language_of_zip


@dataclass(frozen=True)
class Upload:
    filename: str
    data: bytes
    sha256: str
    language: Language


def limits() -> BundleLimits:
    return BundleLimits(upload_bytes=int(settings.ARENA_BOT_UPLOAD_MAX_BYTES))


def is_zip(filename: str, data: bytes) -> bool:
    return Path(filename).suffix.lower() == ".zip" or data[:4] == b"PK\x03\x04"


def check_upload(filename: str, data: bytes) -> Upload:
    """Everything that can be checked without running anything: size, text, the zip's directory,
    the language and whether this server has its toolchain."""
    name = Path(filename or "bot.py").name[:200]
    cap = limits()
    if len(data) > cap.upload_bytes:
        raise BundleRejected(f"the upload is {len(data)} bytes; the limit is {cap.upload_bytes}")
    if is_zip(name, data):
        with tempfile.TemporaryDirectory(prefix="arena-upload-") as tmp:
            path = Path(tmp, "upload.zip")
            path.write_bytes(data)
            infos = inspect_zip(path, cap)
        language = language_of_zip([info.filename for info in infos])
    else:
        language = language_of_file(name)
        check_python_upload(data, cap)
    check_toolchain(language)
    return Upload(name, data, hashlib.sha256(data).hexdigest(), language)


def prepared(sha256: str) -> Path | None:
    """The folder ``materialize`` prepared for this upload earlier on this machine, if any."""
    if not sha256:
        return None
    final = Path(settings.ARENA_BOT_CACHE_DIR) / sha256
    return final if (final / BUILD_INFO).is_file() else None


def materialize(filename: str, data: bytes, sha256: str, sandbox: Sandbox) -> Path:
    """A folder holding the bot, built (compiled languages) and ready to be staged; cached per upload.

    A failed build raises sandbox.build.BuildFailed with the compiler's messages; nothing is cached.
    """
    root = Path(settings.ARENA_BOT_CACHE_DIR)
    final = root / sha256
    if (final / BUILD_INFO).is_file():
        return final
    root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{sha256[:12]}-", dir=root))
    try:
        upload = work / ("upload.zip" if is_zip(filename, data) else Path(filename).name)
        upload.write_bytes(data)
        built = work / "bot"
        prepare_bot(upload, built, sandbox, limits(), filename=filename)
        if final.is_dir() and not (final / BUILD_INFO).is_file():
            shutil.rmtree(final, ignore_errors=True)  # unpacked before builds existed: prepare it again
        try:
            os.rename(built, final)
        except OSError:
            # Another worker prepared the same bundle meanwhile: theirs is as good as ours.
            if not final.is_dir():
                raise
        return final
    finally:
        shutil.rmtree(work, ignore_errors=True)
