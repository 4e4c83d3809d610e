#!/usr/bin/env bash
# Several machines on one: the service as five hosts in Linux network namespaces on a private LAN,
# rated matches played across two worker hosts, one worker host cut off mid-run and plugged back in
# once every match is over. Shows that nothing is lost and every match is rated once
# (docs/deploy.md, "Several machines, tried on one").
#
#   db   10.231.0.2  its own PostgreSQL cluster and Redis server (never the machine's)
#   web  10.231.0.3  the API server (gunicorn with uvicorn workers) and Celery beat
#   w1   10.231.0.4  a Celery worker
#   w2   10.231.0.5  a Celery worker, whose link is cut while it plays matches
#   ops  10.231.0.9  the operator: creates matches through the API, checks the database
#
# The hosts' cables meet on a bridge in a namespace of its own; nothing reaches the machine's network.
# Needs root (network namespaces). Run by scripts/test.sh; alone: sudo bash scripts/several_hosts.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
cd "$ROOT"
command -v ip >/dev/null || apt_install iproute2
command -v redis-server >/dev/null || apt_install redis-server
PGBIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
[ -x "$PGBIN/initdb" ] || { apt_install postgresql; PGBIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"; }
ensure_venv "$ROOT/requirements-dev.txt"

MATCHES="${SEVERAL_HOSTS_MATCHES:-16}"
NET=10.231.0
declare -A ADDR=([db]=$NET.2 [web]=$NET.3 [w1]=$NET.4 [w2]=$NET.5 [ops]=$NET.9)
HOSTS=(db web w1 w2 ops)
TAG="pdc$$"
LAN="$TAG-lan"
ns() { echo "$TAG-$1"; }
on() { local host="$1"; shift; ip netns exec "$(ns "$host")" "$@"; }

START=$SECONDS
step() { printf '==> [%3ds] %s\n' "$((SECONDS - START))" "$*" >&2; }

WORK="$(mktemp -d /tmp/several-hosts.XXXXXX)"
chmod 755 "$WORK"
cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [ "$status" != 0 ]; then
        for log in "$WORK"/*.log "$WORK"/pgsocket/*.log; do
            [ -f "$log" ] || continue
            echo "--- last lines of $(basename "$log")" >&2
            tail -n 15 "$log" >&2
        done
    fi
    # SEVERAL_HOSTS_LOGS=DIR keeps every host's log there.
    if [ -n "${SEVERAL_HOSTS_LOGS:-}" ]; then mkdir -p "$SEVERAL_HOSTS_LOGS" && cp "$WORK"/*.log "$WORK"/pgsocket/*.log "$SEVERAL_HOSTS_LOGS"/ 2>/dev/null || true; fi
    # Every process of these namespaces was started here; the PostgreSQL cluster is stopped first.
    [ -f "$WORK/pg/postmaster.pid" ] && runuser -u postgres -- "$PGBIN/pg_ctl" -D "$WORK/pg" -m immediate stop >/dev/null 2>&1
    for host in "${HOSTS[@]}"; do
        ip netns pids "$(ns "$host")" 2>/dev/null | xargs -r kill -KILL 2>/dev/null || true
    done
    wait 2>/dev/null || true
    for host in "${HOSTS[@]}" lan; do ip netns del "$(ns "$host")" 2>/dev/null || true; done
    rm -rf "$WORK"
    exit "$status"
}
trap cleanup EXIT INT TERM

step "network: hosts ${HOSTS[*]} on $NET.0/24 (namespaces $TAG-*)"
ip netns add "$LAN"
ip -n "$LAN" link add br0 type bridge
ip -n "$LAN" link set br0 up
for host in "${HOSTS[@]}"; do
    ip netns add "$(ns "$host")"
    ip -n "$(ns "$host")" link set lo up
    # The host's end is its eth0; the other end is a port of the bridge, named after the host.
    ip -n "$(ns "$host")" link add eth0 type veth peer name "$host" netns "$LAN"
    ip -n "$(ns "$host")" addr add "${ADDR[$host]}/24" dev eth0
    ip -n "$(ns "$host")" link set eth0 up
    ip -n "$LAN" link set "$host" master br0 up
done

step "db host: its own PostgreSQL cluster and Redis on ${ADDR[db]}"
mkdir -p "$WORK/pg" "$WORK/pgsocket" && chown postgres "$WORK/pg" "$WORK/pgsocket" && chmod 700 "$WORK/pg"
runuser -u postgres -- "$PGBIN/initdb" -D "$WORK/pg" -U postgres --auth=trust -E UTF8 >"$WORK/initdb.log" 2>&1
echo "host all all $NET.0/24 trust" >>"$WORK/pg/pg_hba.conf"
on db runuser -u postgres -- "$PGBIN/pg_ctl" -D "$WORK/pg" -l "$WORK/pgsocket/postgresql.log" -w \
    -o "-h ${ADDR[db]} -p 5432 -k $WORK/pgsocket -c fsync=off -c max_connections=60" start >/dev/null
on db redis-server --bind "${ADDR[db]}" --port 6379 --save "" --appendonly no --daemonize yes --protected-mode no \
    --dir "$WORK" --pidfile "$WORK/redis.pid" --logfile "$WORK/redis.log"

# What every host of the deployment shares; short leases and sweeps so that a cut host is noticed fast.
export DATABASE_URL="postgres://postgres@${ADDR[db]}:5432/arena"
export REDIS_URL="redis://${ADDR[db]}:6379/0"
export SECRET_KEY="several-hosts-$$-$RANDOM$RANDOM"
export ALLOWED_HOSTS="${ADDR[web]}"
export ARENA_REQUIRE_SERVICES=1 PYTHONDONTWRITEBYTECODE=1
export ARENA_MATCH_LEASE_SECONDS=15 ARENA_SWEEP_SECONDS=2 ARENA_QUEUED_RESEND_SECONDS=5
# Each match lasts a few seconds, so that the cut worker host is caught holding some.
export ARENA_BOT_MOVE_DELAY_SECONDS="${SEVERAL_HOSTS_MOVE_DELAY:-0.2}"
unset ARENA_DATABASE_FALLBACK ARENA_REDIS_FALLBACK
PY="$VENV/bin/python"
for _ in $(seq 1 30); do on web "$PGBIN/pg_isready" -q -U postgres -h "${ADDR[db]}" -p 5432 && break; sleep 0.5; done

step "web host: migrate, built-in bots, a staff token; API and beat on ${ADDR[web]}:8000"
SERVICES="$(on web "$PY" manage.py prepare_services)"
eval "$SERVICES"
on web "$PY" manage.py migrate --no-input -v 0
on web "$PY" manage.py ensure_builtin_bots >/dev/null
TOKEN="$(on ops "$PY" scripts/several_hosts.py staff)"
on web "$VENV/bin/gunicorn" config.asgi:application -k config.uvicorn_worker.ArenaUvicornWorker \
    --bind "${ADDR[web]}:8000" --workers 1 --access-logfile "$WORK/web.log" --error-logfile "$WORK/web.log" &
LOG_LEVEL=INFO on web "$VENV/bin/celery" -A config beat --loglevel=INFO --schedule "$WORK/celerybeat-schedule" \
    >"$WORK/beat.log" 2>&1 &

step "worker hosts w1 and w2: celery -A config worker"
for host in w1 w2; do
    mkdir -p "$WORK/$host"
    ARENA_SANDBOX_STATE_DIR="$WORK/$host/sandbox" ARENA_BOT_CACHE_DIR="$WORK/$host/bot-cache" \
        LOG_LEVEL=INFO on "$host" "$VENV/bin/celery" -A config worker -n "$host@several-hosts" --concurrency 2 \
        --loglevel=INFO >"$WORK/$host.log" 2>&1 &
done
wait_for() {  # wait_for SECONDS WHAT COMMAND...: until the command succeeds
    local seconds="$1" what="$2"
    shift 2
    local until=$((SECONDS + seconds))
    until "$@" >/dev/null 2>&1; do
        if [ "$SECONDS" -ge "$until" ]; then echo "FAIL: $what within ${seconds}s" >&2; return 1; fi
        sleep 0.5
    done
}
wait_for 120 "the API answers" on ops "$PY" -c \
    "import urllib.request as u; u.urlopen('http://${ADDR[web]}:8000/api/games/', timeout=5)"
wait_for 120 "worker w1 ready" grep -q "w1@several-hosts ready" "$WORK/w1.log"
wait_for 120 "worker w2 ready" grep -q "w2@several-hosts ready" "$WORK/w2.log"

step "ops host: $MATCHES rated matches (random vs greedy) through the API at http://${ADDR[web]}:8000/"
on ops "$PY" scripts/several_hosts.py create --api "http://${ADDR[web]}:8000" --token "$TOKEN" --count "$MATCHES"

step "waiting until w2 holds matches (w1 drained meanwhile: cancel_consumer), then cutting w2's link"
HELD="$(on ops "$PY" scripts/several_hosts.py cut --other w1@several-hosts --netns "$(ns w2)")"
step "cut worker host w2's link (ip link set eth0 down) while it held matches (id:attempt) $HELD; w1 plays on"
step "w2's leases expire after ${ARENA_MATCH_LEASE_SECONDS}s; the sweeper (every ${ARENA_SWEEP_SECONDS}s) requeues them for w1"
step "waiting for every match to end (w1 plays on; the sweeper requeues w2's expired matches)"
on ops "$PY" scripts/several_hosts.py wait-finished --count "$MATCHES" --timeout 150

grep -h "match sweep" "$WORK/w1.log" | sed 's/^/  w1: /' || true

step "w2's link back up: it reconnects, and its lost attempts commit nothing"
ip -n "$(ns w2)" link set eth0 up
wait_for 90 "w2 answers through the broker again, its lost attempts over" \
    on ops "$PY" scripts/several_hosts.py idle --worker w2@several-hosts
step "checks on the db host's database"
on ops "$PY" scripts/several_hosts.py verify --count "$MATCHES" --held "$HELD"
step "done in $((SECONDS - START))s"
