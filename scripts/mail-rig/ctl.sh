#!/bin/bash
# Stops or starts one of the rig's servers, for outage tests:
#   ctl.sh stop-postfix | start-postfix | stop-dovecot | start-dovecot
# Uses the config and ports start.sh wrote under $MAILROOT (or, if that is
# unset, $WILDT_RIG_ROOT from a sourced env file). Does IO: daemons.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# The rig of the sourced env file if MAILROOT is not given.
MAILROOT=${MAILROOT:-${WILDT_RIG_ROOT:-}}
# shellcheck source=lib.sh
. "$HERE/lib.sh"
[ -f "$MAILROOT/env" ] || rig_die "no rig under $MAILROOT: run start.sh first"
rig_load_env
case ${1:-} in
  stop-postfix) rig_stop_postfix ;;
  start-postfix) rig_start_postfix ;;
  stop-dovecot) rig_stop_dovecot ;;
  start-dovecot) rig_start_dovecot ;;
  *) echo "usage: $0 stop-postfix|start-postfix|stop-dovecot|start-dovecot" >&2; exit 2 ;;
esac
