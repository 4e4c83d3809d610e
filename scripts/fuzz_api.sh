#!/usr/bin/env bash
# Schemathesis over the whole OpenAPI schema against a live gunicorn on its own fresh database, anonymous
# and with a token; fails on any 5xx and on any answer that breaks the schema (body, status code, content
# type, headers) or that accepts an undocumented method. Reading is public while the schema lists token
# and session security, so `ignored_auth` is not checked. Bounded: about a minute per run.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
cd "$ROOT"
PY="$VENV/bin/python"

BASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/arena}"
FUZZ_DB="fuzz_${BASE_URL##*/}"
export DATABASE_URL="${BASE_URL%/*}/$FUZZ_DB"
export ARENA_QUEUE="fuzz-$$"  # no worker consumes it: created matches stay queued, and the queue is deleted below
export ARENA_REQUIRE_SERVICES=1
SECRET_KEY="$("$PY" -c 'import secrets; print(secrets.token_urlsafe(64))')"
export SECRET_KEY
FUZZ_SECONDS="${FUZZ_SECONDS:-45}"

"$PY" - "$DATABASE_URL" <<'PY'
import sys
import psycopg
from common.services import parse_postgres_url
t = parse_postgres_url(sys.argv[1])
with psycopg.connect(host=t.host, port=t.port, user=t.user, password=t.password or None, dbname="postgres", autocommit=True) as c:
    c.execute(f'DROP DATABASE IF EXISTS "{t.name}" WITH (FORCE)')
PY
SERVICES="$("$PY" manage.py prepare_services)"  # an assignment, so that a refusal stops the script
eval "$SERVICES"
"$PY" manage.py migrate --no-input -v 0
"$PY" manage.py ensure_builtin_bots
TOKEN="$("$PY" manage.py shell -c '
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from arena.people import person_of
user = User.objects.create_user("fuzzer", password="a-long-fuzzing-passphrase")
person_of(user)
print(Token.objects.create(user=user).key)' | tail -n 1)"

PORT="$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
# No request-line limit in gunicorn: its own HTML 400 would hide how the application answers long query strings.
LOG_LEVEL=ERROR "$VENV/bin/gunicorn" config.wsgi:application --bind "127.0.0.1:$PORT" --workers 2 --timeout 30 \
    --limit-request-line 0 --error-logfile var/fuzz-gunicorn.log &
SERVER=$!
cleanup() {
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
    "$PY" -c 'import os, redis; redis.Redis.from_url(os.environ["REDIS_URL"]).delete(os.environ["ARENA_QUEUE"])' || true
}
trap cleanup EXIT

fuzz() {
    "$VENV/bin/schemathesis" run "http://127.0.0.1:$PORT/api/schema/" --wait-for-schema 30 \
        --checks not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance,response_headers_conformance,unsupported_method \
        --phases examples,coverage,fuzzing --max-examples 8 --max-time "$FUZZ_SECONDS" --seed 1 \
        --workers 1 --request-timeout 20 --suppress-health-check all --no-shrink "$@"
}
echo "==> schemathesis, anonymous" >&2
fuzz
echo "==> schemathesis, with a token" >&2
fuzz -H "Authorization: Token $TOKEN"
