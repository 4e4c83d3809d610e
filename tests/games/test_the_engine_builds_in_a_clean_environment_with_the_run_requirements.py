"""`make run` builds the compiled engine with requirements-build.txt alone, as on a fresh clone.

A new virtual environment gets only requirements-build.txt (no Django, no type stubs, no mypy plugins);
scripts/build_engine.py runs in a copy of the engine's sources with the project's pyproject.toml beside
them (whose mypy plugins need the development requirements), so the checkout is never written. The
copy's interpreter must then import the compiled modules, not the sources.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from games.part_du_chef import native

# It creates a virtual environment, installs into it and runs a C build.
pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
from games.part_du_chef import native, state
print(state.__file__)
raise SystemExit(0 if native.running_compiled() else 1)
"""


def test_the_engine_builds_and_loads_compiled_with_only_the_build_requirements(tmp_path: Path) -> None:
    copy = tmp_path / "clone"
    (copy / "scripts").mkdir(parents=True)
    shutil.copy2(ROOT / "scripts" / "build_engine.py", copy / "scripts")
    for name in ("pyproject.toml", "requirements-build.txt"):
        shutil.copy2(ROOT / name, copy)
    shutil.copytree(ROOT / "games", copy / "games", ignore=shutil.ignore_patterns("__pycache__"))

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    subprocess.run(
        [python, "-m", "pip", "install", "--disable-pip-version-check", "-q", "-r", "requirements-build.txt"],
        cwd=copy,
        check=True,
    )
    # Nothing of the service is there: the build needs none of it.
    assert subprocess.run([python, "-c", "import django"], capture_output=True).returncode != 0

    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    built = subprocess.run(
        [python, str(copy / "scripts" / "build_engine.py")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    assert "compiled errors, deck, actions, scoring, observation, state, playout" in built.stdout

    loaded = subprocess.run([python, "-c", CHECK], cwd=copy, env=env, capture_output=True, text=True)
    assert loaded.returncode == 0, loaded.stdout + loaded.stderr
    module = Path(loaded.stdout.strip())
    assert module.is_relative_to(copy / "build" / "native" / "games" / "part_du_chef")
    assert module.name.startswith("state.") and module.suffix == ".so"
    # Only the build was written beside the sources (no mypy cache, no build/ of setuptools' own).
    assert sorted(path.name for path in copy.iterdir()) == sorted(
        ["build", "games", "pyproject.toml", "requirements-build.txt", "scripts"]
    )
    assert sorted(path.name for path in (copy / "build").iterdir()) == ["native"]


def test_a_process_that_asked_for_the_pure_modules_is_not_running_compiled() -> None:
    pure = subprocess.run(
        [sys.executable, "-c", CHECK],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", native.PURE_VARIABLE: "1"},
        capture_output=True,
        text=True,
    )
    assert pure.returncode == 1, pure.stderr
    assert pure.stdout.strip() == str(native.PACKAGE_DIR / "state.py")
