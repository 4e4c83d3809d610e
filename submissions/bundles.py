"""Uploaded bot files: checked when they arrive, unpacked (in the sandbox) when they are played.

The bytes are stored in the database with their version (capped at ARENA_BOT_UPLOAD_MAX_BYTES),
so every worker can play any version without shared storage. Each worker machine unpacks a
bundle once into ARENA_BOT_CACHE_DIR/<sha256>/ and reuses that directory for later matches.
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
from sandbox.bundle import BundleLimits, check_python_upload, inspect_zip, prepare_upload

KINDS = {".py": "python", ".js": "javascript", ".zip": "zip"}


@dataclass(frozen=True)
class Upload:
    filename: str
    data: bytes
    sha256: str


def limits() -> BundleLimits:
    return BundleLimits(upload_bytes=int(settings.ARENA_BOT_UPLOAD_MAX_BYTES))


def kind_of(filename: str, data: bytes) -> str:
    suffix = Path(filename).suffix.lower()
    if suffix in KINDS:
        return KINDS[suffix]
    if data[:4] == b"PK\x03\x04":
        return "zip"
    raise BundleRejected(f"upload {filename!r}: a bot is one .py file, one .js file, or a .zip holding main.py")


def check_upload(filename: str, data: bytes) -> Upload:
    """Everything that can be checked without running anything: size, text, the zip's directory."""
    name = Path(filename or "bot.py").name[:200]
    cap = limits()
    if len(data) > cap.upload_bytes:
        raise BundleRejected(f"the upload is {len(data)} bytes; the limit is {cap.upload_bytes}")
    kind = kind_of(name, data)
    if kind == "zip":
        with tempfile.TemporaryDirectory(prefix="arena-upload-") as tmp:
            path = Path(tmp, "upload.zip")
            path.write_bytes(data)
            inspect_zip(path, cap)
    else:
        check_python_upload(data, cap)
    return Upload(name, data, hashlib.sha256(data).hexdigest())


def materialize(filename: str, data: bytes, sha256: str, sandbox: Sandbox) -> Path:
    """A directory holding main.py (or main.js) and the rest of the bot, ready to be staged."""
    root = Path(settings.ARENA_BOT_CACHE_DIR)
    final = root / sha256
    if final.is_dir():
        return final
    root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{sha256[:12]}-", dir=root))
    try:
        upload = work / Path(filename).name
        upload.write_bytes(data)
        built = work / "bot"
        if kind_of(filename, data) == "javascript":
            text = check_python_upload(data, limits())
            built.mkdir()
            (built / "main.js").write_text(text, encoding="utf-8")
        else:
            prepare_upload(upload, built, sandbox, limits())
        try:
            os.rename(built, final)
        except OSError:
            # Another worker unpacked the same bundle meanwhile: theirs is as good as ours.
            if not final.is_dir():
                raise
        return final
    finally:
        shutil.rmtree(work, ignore_errors=True)
