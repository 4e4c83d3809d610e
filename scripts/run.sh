#!/usr/bin/env bash
# make run: install, migrate, start the API server, a worker and beat, play a demo arena, keep serving.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
cd "$ROOT"
# Submitted bots run only inside bubblewrap (never bare); JavaScript bots need Node.js.
command -v bwrap >/dev/null || apt_install bubblewrap || echo "==> bubblewrap could not be installed: uploaded bots will be refused" >&2
command -v node >/dev/null || apt_install nodejs || true
ensure_venv "$ROOT/requirements.txt"
PY="$VENV/bin/python"
HOST="${HOST:-127.0.0.1}"
PORT="${PORT:-8000}"
mkdir -p var

"$PY" manage.py migrate --no-input -v 0
"$PY" manage.py ensure_builtin_bots

# Whether the settings fell back to in-process tasks (Redis unreachable): then no worker or beat.
EAGER="$("$PY" -c 'import django, os; os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings"); django.setup(); from django.conf import settings; print(int(settings.CELERY_TASK_ALWAYS_EAGER))' 2>/dev/null)"

PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

if [ "$EAGER" = "0" ]; then
    echo "==> starting a Celery worker and beat (logs in var/)" >&2
    "$VENV/bin/celery" -A config worker --loglevel=INFO >var/worker.log 2>&1 &
    PIDS+=($!)
    "$VENV/bin/celery" -A config beat --loglevel=INFO --schedule var/celerybeat-schedule >var/beat.log 2>&1 &
    PIDS+=($!)
fi

# ASGI under uvicorn workers: pages and the API as usual, and the live-update streams (Server-Sent
# Events) that wait on Redis without holding a thread each.
echo "==> serving the API at http://$HOST:$PORT/ (gunicorn with uvicorn workers, logs in var/gunicorn.log)" >&2
"$VENV/bin/gunicorn" config.asgi:application -k uvicorn_worker.UvicornWorker --bind "$HOST:$PORT" --workers 2 \
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
