#!/usr/bin/env bash
# make test: ruff, mypy, the import contracts, the OpenAPI check, the compiled engine, the API fuzzing, then the whole
# suite against real PostgreSQL and Redis in three tiers (unit, db in parallel, system).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
cd "$ROOT"

# System packages the tests need.
command -v bwrap >/dev/null || apt_install bubblewrap
command -v pg_ctlcluster >/dev/null || apt_install postgresql
command -v redis-server >/dev/null || apt_install redis-server
command -v redis-cli >/dev/null || apt_install redis-tools
# Browser tests drive Debian's Chromium; bots in every language (docs/languages.md) need their toolchains.
command -v chromium >/dev/null || apt_install chromium
install_bot_toolchains
# The translation catalogs are checked against the code with Django's makemessages, which runs GNU gettext.
command -v xgettext >/dev/null || apt_install gettext
# The leaderboard benchmark's load (tests/bench) comes from wrk.
command -v wrk >/dev/null || apt_install wrk

# PostgreSQL and Redis: start them when installed but stopped.
if ! pg_isready -q -h 127.0.0.1 -p 5432; then
    echo "==> starting PostgreSQL" >&2
    $SUDO pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -1)" main start || true
    for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
if ! psql -h 127.0.0.1 -U postgres -d postgres -Atc 'select 1' >/dev/null 2>&1; then
    # A freshly installed server asks local TCP clients for a password; the tests connect as postgres.
    HBA="$(ls /etc/postgresql/*/main/pg_hba.conf | sort -V | tail -1)"
    echo "==> allowing local TCP connections as postgres in $HBA" >&2
    $SUDO sed -i '1i host all postgres 127.0.0.1/32 trust\nhost all postgres ::1/128 trust' "$HBA"
    $SUDO pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -1)" main reload
    sleep 1
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    echo "==> starting Redis" >&2
    $SUDO mkdir -p /var/lib/redis /var/log/redis
    $SUDO redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
        --dir /var/lib/redis --logfile /var/log/redis/ci.log
    for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done
fi

ensure_venv "$ROOT/requirements-dev.txt"
export ARENA_REQUIRE_SERVICES=1
export PYTHONDONTWRITEBYTECODE=1
# The tests' own Redis database (never the one a running service uses); keys carry the test database's prefix.
export REDIS_URL="${ARENA_TEST_REDIS_URL:-redis://127.0.0.1:6379/15}"
echo "==> services" >&2
SERVICES="$("$VENV/bin/python" manage.py prepare_services)"  # an assignment, so that a refusal stops the script
eval "$SERVICES"

echo "==> ruff (lint and format)" >&2
"$VENV/bin/ruff" check .
"$VENV/bin/ruff" format --check .
echo "==> mypy (strict, every package: pyproject.toml)" >&2
"$VENV/bin/mypy"
echo "==> import contracts (the layers of docs/architecture.md, no cycle)" >&2
"$VENV/bin/lint-imports" --no-cache
echo "==> OpenAPI schema" >&2
"$VENV/bin/python" manage.py spectacular --validate --fail-on-warn --file "$(mktemp)"
echo "==> compiled rules engine (mypyc)" >&2
"$VENV/bin/python" scripts/build_engine.py
echo "==> API fuzzing (schemathesis against a live server)" >&2
bash scripts/fuzz_api.sh

# pytest in three tiers (tests/conftest.py gives each test one): together they are the whole suite.
tier() {
    local status=0
    # --durations: the slowest tests of each tier, printed at its end, to keep the suite lean.
    "$VENV/bin/python" -m pytest tests/ -p no:cacheprovider --durations=15 --durations-min=2 "$@" || status=$?
    # 5: no test in this tier (say, a selection by -k elsewhere), which is no failure.
    if [ "$status" -ne 0 ] && [ "$status" -ne 5 ]; then
        return "$status"
    fi
}
echo "==> pytest -m unit (no database, no Redis: fast feedback)" >&2
tier -m unit
# Each xdist worker has a test database of its own (test_<name>_gw0, ...) and so cache keys of its own;
# ARENA_TEST_DB_PROCESSES=0 runs the tier in one process (faster where the cores are already busy).
echo "==> pytest -m db (the database and Redis, ${ARENA_TEST_DB_PROCESSES:-2} processes)" >&2
tier -m db -n "${ARENA_TEST_DB_PROCESSES:-2}"
echo "==> pytest -m system (workers, Chromium, the sandbox, other processes; one at a time)" >&2
tier -m system

# --- Several machines on one: scripts/several_hosts.sh (docs/deploy.md, "Several machines, tried on one") ---
# Five hosts in network namespaces (db with its own PostgreSQL and Redis, web, two workers, ops); rated
# matches across both workers, one worker host's link cut while it plays; nothing lost, nothing rated twice.
echo "==> several hosts (network namespaces; one worker host cut off mid-run)" >&2
$SUDO bash scripts/several_hosts.sh
# --- end of several machines ---
