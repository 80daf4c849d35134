#!/bin/bash
# Stops the test PostgreSQL that start.sh started under $PGROOT; keeps its
# data. Does IO: signals the server.
set -euo pipefail
PGROOT=${PGROOT:-${TMPDIR:-/tmp}/wildt-pg-rig}
[ -f "$PGROOT/env" ] || { echo "pg-rig: nothing started under $PGROOT" >&2; exit 0; }
# shellcheck disable=SC1091
. "$PGROOT/env"
if [ -f "$WILDT_PG_ROOT/data/postmaster.pid" ]; then
  runuser -u postgres -- "$WILDT_PG_BIN/pg_ctl" -D "$WILDT_PG_ROOT/data" -m fast -w stop >&2
fi
echo "pg-rig: stopped" >&2
