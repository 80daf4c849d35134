#!/bin/bash
# Starts a test PostgreSQL on 127.0.0.1 with its own data directory (Debian's
# postgresql package, installed first if missing; the system's cluster is
# neither used nor touched):
#   port $WILDT_PG_PORT (default 15432), role wildt (password wildtpw, from
#   the password file $PGROOT/password), database wildt, owned by it.
# All state under $PGROOT (default ${TMPDIR:-/tmp}/wildt-pg-rig), owned by the
# postgres user; writes $PGROOT/env (export WILDT_PG_URL=..., WILDT_PG_*) and
# prints its path on stdout. A second start restarts the server and keeps the
# data. Does IO: apt-get, files, a daemon.
set -euo pipefail
PGROOT=${PGROOT:-${TMPDIR:-/tmp}/wildt-pg-rig}
PORT=${WILDT_PG_PORT:-15432}
log() { echo "pg-rig: $*" >&2; }
die() { log "error: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root (apt-get, the postgres user)"
started=$(date +%s%N)
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bindir" ]; then
  log "installing postgresql"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >&2
  bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi
as_pg() { runuser -u postgres -- "$@"; }

mkdir -p "$PGROOT"
chown postgres: "$PGROOT"
data=$PGROOT/data
if [ -f "$data/postmaster.pid" ]; then
  as_pg "$bindir/pg_ctl" -D "$data" -m fast -w stop >&2 || true
fi
if [ ! -f "$data/PG_VERSION" ]; then
  echo wildtpw > "$PGROOT/password"
  chown postgres: "$PGROOT/password"
  chmod 600 "$PGROOT/password"
  as_pg "$bindir/initdb" -D "$data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
    -E UTF8 --locale=C.UTF-8 >"$PGROOT/initdb.log" 2>&1 || die "initdb failed: $(tail -n 5 "$PGROOT/initdb.log")"
fi
# Loopback only; the socket in $PGROOT, not the system's /run/postgresql.
as_pg "$bindir/pg_ctl" -D "$data" -l "$PGROOT/server.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories=$PGROOT -c max_connections=200 -c fsync=on" \
  start >&2 || die "postgres did not start: $(tail -n 5 "$PGROOT/server.log")"
psql_pg() { as_pg "$bindir/psql" -h "$PGROOT" -p "$PORT" -U postgres -v ON_ERROR_STOP=1 -qtA "$@"; }
if [ "$(psql_pg -c "SELECT 1 FROM pg_roles WHERE rolname = 'wildt'")" != 1 ]; then
  psql_pg -c "CREATE ROLE wildt LOGIN PASSWORD 'wildtpw' CREATEDB" >&2
fi
if [ "$(psql_pg -c "SELECT 1 FROM pg_database WHERE datname = 'wildt'")" != 1 ]; then
  psql_pg -c "CREATE DATABASE wildt OWNER wildt" >&2
fi
cp "$PGROOT/password" "$PGROOT/password.client"
chmod 644 "$PGROOT/password.client"
cat > "$PGROOT/env" <<ENV
export WILDT_PG_ROOT=$PGROOT
export WILDT_PG_PORT=$PORT
export WILDT_PG_BIN=$bindir
export WILDT_PG_PASSWORD_FILE=$PGROOT/password.client
export WILDT_PG_URL=postgres://wildt@127.0.0.1:$PORT/wildt
ENV
log "up in $((($(date +%s%N) - started) / 1000000)) ms on 127.0.0.1:$PORT (role wildt, database wildt); env in $PGROOT/env"
echo "$PGROOT/env"
