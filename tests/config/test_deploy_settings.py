"""Secrets and the production profile: no usable key in the code, and `check --deploy` finds nothing."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest

from tests.support import ROOT


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS"}}
    full.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=full, capture_output=True, text=True, timeout=120
    )


@pytest.mark.system
def test_serving_without_a_secret_key_is_refused_with_a_clear_message() -> None:
    result = _manage("migrate", "--check")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr and "var/secret_key" in result.stderr


def test_the_code_holds_no_usable_secret_key() -> None:
    text = (ROOT / "config" / "settings.py").read_text()
    assert "dev-only-secret-key" not in text
    assert 'env_str("SECRET_KEY", "")' in text


@pytest.mark.system
def test_the_production_profile_passes_check_deploy_with_nothing_reported() -> None:
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "DEBUG",
        ARENA_PROFILE="production",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="arena.example.org",
        CSRF_TRUSTED_ORIGINS="https://arena.example.org",
        ARENA_BEHIND_PROXY="1",
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert "System check identified no issues (0 silenced)." in result.stdout


@pytest.mark.system
def test_the_production_profile_needs_its_hosts_from_the_environment() -> None:
    result = _manage("check", ARENA_PROFILE="production", SECRET_KEY=secrets.token_urlsafe(64))
    assert result.returncode != 0
    assert "needs ALLOWED_HOSTS" in result.stderr


@pytest.mark.system
def test_the_development_profile_is_not_deploy_ready() -> None:
    result = _manage("check", "--deploy", SECRET_KEY=secrets.token_urlsafe(64))
    assert "security.W004" in result.stderr + result.stdout
