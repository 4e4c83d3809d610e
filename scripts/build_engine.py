#!/usr/bin/env python3
"""Compile the rules engine's hot modules with mypyc into build/native/ (see games/part_du_chef/native.py).

    .venv/bin/python scripts/build_engine.py

Needs requirements-build.txt (mypy ships mypyc; setuptools drives the C build) and a C compiler, nothing
of the service: the engine is the pure games/ package, so mypyc runs with a configuration of its own
(strict, no plugins) rather than pyproject.toml's, whose Django plugins would need the development
requirements. Takes about half a minute; writes nothing in the checkout but build/native/. The pure
Python package keeps working without it, and a build whose sources changed is ignored.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mypyc.build import mypycify  # noqa: E402
from setuptools import setup  # type: ignore[import-untyped]  # noqa: E402  (setuptools 65 ships no types)

from games.part_du_chef import native  # noqa: E402

# What mypyc type-checks with: strict like pyproject.toml, none of its plugins, its cache out of the checkout.
CONFIG = """[mypy]
strict = True
cache_dir = {cache}
"""


def main() -> int:
    # Module names come from the sources' paths, relative to the project's root.
    os.chdir(ROOT)
    digest = native.source_digest()
    sources = [str(Path("games") / "part_du_chef" / f"{name}.py") for name in native.COMPILED_MODULES]
    target = native.build_package_dir()
    with tempfile.TemporaryDirectory() as work:
        config = Path(work) / "mypy.ini"
        config.write_text(CONFIG.format(cache=Path(work) / "mypy-cache"))
        setup(
            name="part-du-chef-native",
            packages=[],
            py_modules=[],
            ext_modules=mypycify(
                ["--config-file", str(config), *sources],
                opt_level="3",
                group_name="games.part_du_chef.native_engine",
                target_dir=str(Path(work) / "c"),
            ),
            script_args=[
                "-q",
                "build_ext",
                "--build-lib",
                str(Path(work) / "lib"),
                "--build-temp",
                str(Path(work) / "tmp"),
            ],
        )
        built = Path(work) / "lib" / "games" / "part_du_chef"
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        for path in built.iterdir():
            shutil.copy2(path, target / path.name)
    (target / native.STAMP_NAME).write_text(digest + "\n")
    print(f"compiled {', '.join(native.COMPILED_MODULES)} into {target.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
