#!/bin/bash
# Stops the test mail servers that start.sh started under $MAILROOT (by their
# own pid files only) and waits until their ports close. Keeps $MAILROOT.
# Does IO: signals processes.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$HERE/lib.sh"
rig_load_env
rig_stop_postfix
rig_stop_dovecot
rig_stop_dkim
rig_log "stopped"
