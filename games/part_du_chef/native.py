"""The optional compiled build of the rules engine: which modules it holds and when it may be used.

`scripts/build_engine.py` compiles the modules below with mypyc (from the same typed sources) into
build/native/ and stamps the build with a digest of those sources. On import the package puts that
build first on its path only when the stamp matches the sources as they are now, so an edited source
is never shadowed by a stale build; otherwise, or with PART_DU_CHEF_PURE=1 in the environment, the
pure Python modules are used. Both give identical records (tests/games/test_compiled_engine.py).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import os
import sys
from pathlib import Path
from typing import Final

# The engine's hot path: the state, what it depends on, and the random playout.
COMPILED_MODULES: Final = ("errors", "deck", "actions", "scoring", "observation", "state", "playout")
PACKAGE_DIR: Final = Path(__file__).resolve().parent
BUILD_DIR: Final = PACKAGE_DIR.parents[1] / "build" / "native"
STAMP_NAME: Final = "sources.sha256"
PURE_VARIABLE: Final = "PART_DU_CHEF_PURE"


def source_digest() -> str:
    """A digest of the compiled modules' sources and of the Python they are built for."""
    digest = hashlib.sha256(sys.implementation.cache_tag.encode())
    for name in COMPILED_MODULES:
        digest.update(name.encode())
        digest.update((PACKAGE_DIR / f"{name}.py").read_bytes())
    return digest.hexdigest()


def build_package_dir() -> Path:
    """Where the compiled modules of this package live once built."""
    return BUILD_DIR / "games" / "part_du_chef"


def current_build() -> Path | None:
    """The compiled build's directory when it is present and matches the sources, else None."""
    stamp = build_package_dir() / STAMP_NAME
    try:
        built = stamp.read_text().strip()
    except OSError:
        return None
    return build_package_dir() if built == source_digest() else None


def usable_build() -> Path | None:
    """The compiled build's directory when it is current and not turned off, else None."""
    if os.environ.get(PURE_VARIABLE):
        return None
    return current_build()


def running_compiled() -> bool:
    """Whether this process's engine modules are the compiled ones (not merely built): `make run` says
    which engine runs from this."""
    for name in COMPILED_MODULES:
        module = importlib.import_module(f"{__package__}.{name}")
        # mypyc names a grouped module's file by its full name below the build's directory.
        path = Path(getattr(module, "__file__", None) or "")
        compiled = path.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
        if not compiled or not path.is_relative_to(build_package_dir()):
            return False
    return True
