#!/bin/sh
# benches/harness/callgrind_serve.sh — a WILDT_BIN for the bench drivers:
# runs `wildt serve` under valgrind's callgrind (a profile per run,
# $CALLGRIND_DIR/callgrind.serve.PID, /tmp unless set; an absolute path, as
# wildt changes its directory) and every other subcommand as it is. The
# binary is $CALLGRIND_WILDT (target/release/wildt unless set). For
# example, the instructions of a real-servers run:
#   WILDT_BIN=$PWD/callgrind_serve.sh python3 bench_servers.py --games 100 --repeats 1 --out F
#   callgrind_annotate /tmp/callgrind.serve.* | grep 'PROGRAM TOTALS'
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WILDT=${CALLGRIND_WILDT:-$ROOT/target/release/wildt}
if [ "$1" = serve ]; then
  exec valgrind --tool=callgrind --callgrind-out-file="${CALLGRIND_DIR:-/tmp}/callgrind.serve.%p" "$WILDT" "$@"
fi
exec "$WILDT" "$@"
