"""docs/deploy.md's commands and systemd unit, and scripts/several_hosts.sh, start the web server exactly as
scripts/run.sh does: the ASGI application under the project's uvicorn worker class, which ignores
X-Forwarded-For from loopback (config/uvicorn_worker.py), never uvicorn's own class, which believes it."""

from __future__ import annotations

import pytest

from tests.served import DEPLOY_MD, RUN_SH, SEVERAL_HOSTS_SH, gunicorn_commands

pytestmark = pytest.mark.unit

SERVED_AS = ("config.asgi:application", "config.uvicorn_worker.ArenaUvicornWorker")


def _served(text: str) -> set[tuple[str, str]]:
    return {(command.application, command.worker_class) for command in gunicorn_commands(text)}


def test_run_sh_starts_the_asgi_application_under_the_projects_worker_class() -> None:
    assert _served(RUN_SH.read_text()) == {SERVED_AS}


def test_the_systemd_unit_of_docs_deploy_starts_the_command_run_sh_uses() -> None:
    text = DEPLOY_MD.read_text()
    units = [line for line in text.splitlines() if "ExecStart=" in line and "gunicorn" in line]
    assert units, "docs/deploy.md has no arena-web unit (ExecStart=... gunicorn ...)"
    assert _served("\n".join(units)) == _served(RUN_SH.read_text())


def test_every_server_command_of_docs_deploy_and_several_hosts_is_run_sh_s() -> None:
    expected = _served(RUN_SH.read_text())
    assert _served(DEPLOY_MD.read_text()) == expected
    assert _served(SEVERAL_HOSTS_SH.read_text()) == expected


def test_the_parser_sees_a_wrong_worker_class() -> None:
    wrong = (
        "ExecStart=/srv/arena/.venv/bin/gunicorn config.asgi:application -k uvicorn_worker.UvicornWorker --workers 4"
    )
    assert _served(wrong) == {("config.asgi:application", "uvicorn_worker.UvicornWorker")} != {SERVED_AS}
