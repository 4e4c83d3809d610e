#!/usr/bin/env bash
# make run: install, migrate, start the API server, a worker and beat, play a demo arena, keep serving.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
source "$(dirname "${BASH_SOURCE[0]}")/supervise.sh"
cd "$ROOT"
# The processes, so that their PostgreSQL connections add up to a known total (docs/deploy.md,
# "Database connections"): each web process borrows from a pool of at most ARENA_DB_POOL_MAX_SIZE,
# each worker child and beat keep one connection, this script's own commands one at a time.
WEB_PROCESSES="${WEB_PROCESSES:-2}"
WORKER_CONCURRENCY="${WORKER_CONCURRENCY:-2}"
DB_CONNECTIONS=$((WEB_PROCESSES * ${ARENA_DB_POOL_MAX_SIZE:-4} + WORKER_CONCURRENCY + 2))
if [ "$DB_CONNECTIONS" -gt "${ARENA_DB_MAX_CONNECTIONS:-20}" ]; then
    echo "==> at most $DB_CONNECTIONS PostgreSQL connections would be open, over ARENA_DB_MAX_CONNECTIONS (${ARENA_DB_MAX_CONNECTIONS:-20}): lower WEB_PROCESSES, WORKER_CONCURRENCY or ARENA_DB_POOL_MAX_SIZE" >&2
    exit 2
fi
# Submitted bots run only inside bubblewrap (never bare), built and run by their language's toolchain.
command -v bwrap >/dev/null || apt_install bubblewrap || echo "==> bubblewrap could not be installed: uploaded bots will be refused" >&2
install_bot_toolchains
ensure_venv "$ROOT/requirements.txt"
PY="$VENV/bin/python"
# The compiled rules engine (mypyc, about 3x the pure Python modules, which are used wherever it cannot be built).
# Said from what a fresh interpreter actually loads, not from the build's exit status.
if "$PY" -m pip install --disable-pip-version-check -q -r "$ROOT/requirements-build.txt" && "$PY" scripts/build_engine.py; then
    if "$PY" -c 'from games.part_du_chef import native; raise SystemExit(0 if native.running_compiled() else 1)'; then
        echo "==> the rules engine runs compiled" >&2
    else
        echo "==> the compiled rules engine was built but does not load: the rules run in pure Python" >&2
    fi
else
    echo "==> the compiled rules engine could not be built: the rules run in pure Python" >&2
fi
HOST="${HOST:-127.0.0.1}"
PORT="${PORT:-8000}"
mkdir -p var

# A secret key of this installation, made on the first run and kept (an exported SECRET_KEY wins).
if [ -z "${SECRET_KEY:-}" ]; then
    [ -s var/secret_key ] || (umask 077 && "$PY" -c 'import secrets; print(secrets.token_urlsafe(64))' >var/secret_key)
    SECRET_KEY="$(cat var/secret_key)"
    export SECRET_KEY
fi
# Creates the database if missing and probes Redis; exports the fallback choice for everything below.
SERVICES="$("$PY" manage.py prepare_services)"  # an assignment, so that a refusal stops the script
eval "$SERVICES"

"$PY" manage.py migrate --no-input -v 0
"$PY" manage.py ensure_builtin_bots
# Placing bots meet settled rungs: a fresh database's ladder is unrated, so it plays its
# rungs near each other first (about 45 s on one core the first time, bounded by --rounds; nothing after).
"$PY" manage.py settle_house_ladder --rounds 40

# Redis unreachable: tasks run in-process, so no worker or beat.
EAGER="$ARENA_REDIS_FALLBACK"

PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

if [ "$EAGER" = "0" ]; then
    # Supervised: a worker or beat that exits is started again, with a line on stderr and in its log.
    echo "==> starting a Celery worker and beat, restarted whenever they exit (logs in var/)" >&2
    : >var/worker.log
    : >var/beat.log
    supervise worker var/worker.log "$VENV/bin/celery" -A config worker --concurrency "$WORKER_CONCURRENCY" --loglevel=INFO
    supervise beat var/beat.log "$VENV/bin/celery" -A config beat --loglevel=INFO --schedule var/celerybeat-schedule
fi

# ASGI under uvicorn workers: pages and the API as usual, and the live-update streams (Server-Sent
# Events) that wait on Redis without holding a thread each. The worker class ignores X-Forwarded-For
# (uvicorn believes it from loopback by default): the client address is the connection's unless
# ARENA_NUM_PROXIES trusted proxies are configured (docs/deploy.md).
echo "==> serving the API at http://$HOST:$PORT/ (gunicorn with uvicorn workers, logs in var/gunicorn.log; at most $DB_CONNECTIONS database connections in all)" >&2
"$VENV/bin/gunicorn" config.asgi:application -k config.uvicorn_worker.ArenaUvicornWorker --bind "$HOST:$PORT" --workers "$WEB_PROCESSES" \
    --access-logfile var/gunicorn.log --error-logfile var/gunicorn.log &
GUNICORN=$!
PIDS+=($GUNICORN)

"$PY" manage.py demo_arena --matches "${DEMO_MATCHES:-12}"

cat >&2 <<MSG

Leaderboard: http://$HOST:$PORT/api/leaderboards/part-du-chef/
API docs:    http://$HOST:$PORT/api/docs/
Admin:       http://$HOST:$PORT/admin/  (create an account: .venv/bin/python manage.py createsuperuser)
Serving; press Ctrl-C to stop.
MSG
wait "$GUNICORN"
