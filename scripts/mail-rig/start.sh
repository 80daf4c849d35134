#!/bin/bash
# Starts the test mail servers on 127.0.0.1 (installing them first if missing):
#   Dovecot  IMAP $WILDT_RIG_IMAP_PORT (10143, STARTTLS offered), IMAPS 10993, LMTP 10024
#   Postfix  SMTP 10025 (STARTTLS offered), SMTPS 10465 -> Dovecot over LMTP
#   DKIM     provider submission 10587 (SASL; OpenDKIM signs) -> MX 10026
#            (OpenDKIM verifies, stamps Authentication-Results) -> Dovecot
# Users: chess@club.example, anna@example.org, ben@example.net, p01..p80@example.org,
# each with password <local part>pw. Sub-addresses (user+tag@) land in the user's INBOX.
# All state under $MAILROOT (default ${TMPDIR:-/tmp}/wildt-mail-rig); writes
# $MAILROOT/env (export WILDT_RIG_*=...) and prints its path on stdout.
# A second start restarts the servers with fresh config and keeps the mail.
# Does IO: apt-get, files, daemons.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$HERE/lib.sh"

[ "$(id -u)" = 0 ] || rig_die "must run as root (apt-get, vmail user, daemons)"
started=$(date +%s%N)
rig_install
if [ -f "$MAILROOT/env" ]; then
  # A rig already under this MAILROOT: stop it on the ports it was started with.
  (rig_load_env && rig_stop_postfix && rig_stop_dovecot && rig_stop_dkim)
fi
rig_prepare
rig_start_dkim
rig_start_dovecot
rig_start_postfix
rig_log "up in $((($(date +%s%N) - started) / 1000000)) ms: IMAP $IMAP_PORT, IMAPS $IMAPS_PORT, SMTP $SMTP_PORT, SMTPS $SMTPS_PORT, provider $SUBMIT_PORT -> MX $MX_PORT (DKIM); env in $MAILROOT/env"
echo "$MAILROOT/env"
