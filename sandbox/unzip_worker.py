"""Decompress an uploaded bot zip; runs inside the sandbox, standard library only.

Usage: unzip_worker.py ZIP OUTDIR MAX_ENTRIES MAX_BYTES.  Exits non-zero with
the reason as the last line of stderr.  The caller has already checked the
central directory; this repeats the essential checks and counts the bytes it
actually writes, so a header that lies about sizes is caught too.
"""

from __future__ import annotations

import os
import stat
import sys
import zipfile


def fail(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.exit(2)


def main() -> None:
    archive, out, max_entries, max_bytes = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    written = 0
    with zipfile.ZipFile(archive) as zf:
        infos = zf.infolist()
        if len(infos) > max_entries:
            fail(f"the zip has {len(infos)} entries; the limit is {max_entries}")
        for info in infos:
            name = info.filename
            parts = name.rstrip("/").split("/")
            if name.startswith("/") or any(p in ("", ".", "..") for p in parts) or "\\" in name:
                fail(f"entry {name!r} points outside the bot's folder")
            mode = info.external_attr >> 16
            if stat.S_IFMT(mode) not in (0, stat.S_IFREG, stat.S_IFDIR):
                fail(f"{name!r} is not a regular file or folder")
            target = os.path.join(out, *parts)
            if info.is_dir():
                os.makedirs(target, exist_ok=True)
                continue
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with zf.open(info) as src, open(target, "xb") as dst:
                while True:
                    chunk = src.read(65536)
                    if not chunk:
                        break
                    written += len(chunk)
                    if written > max_bytes:
                        fail(f"zip bomb refused: the zip expands to more than {max_bytes} bytes")
                    dst.write(chunk)
            if mode & stat.S_IXUSR:
                os.chmod(target, 0o755)  # a ready-built program keeps its execute bit


if __name__ == "__main__":
    try:
        main()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as exc:
        fail(f"cannot unpack the zip: {exc}")
