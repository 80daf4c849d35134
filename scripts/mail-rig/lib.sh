# Shared by start.sh, stop.sh and ctl.sh (sourced, not run): settings and the
# functions that install, configure, start and stop the test mail servers.
# Does IO: apt-get, files under $MAILROOT, background daemons on 127.0.0.1.
#
# Everything lives under $MAILROOT (default: a fixed folder under $TMPDIR so
# that stop.sh finds what start.sh started). Ports can be moved by env.

MAILROOT=${MAILROOT:-${TMPDIR:-/tmp}/wildt-mail-rig}
RIG_HOST=127.0.0.1
IMAP_PORT=${WILDT_RIG_IMAP_PORT:-10143}
IMAPS_PORT=${WILDT_RIG_IMAPS_PORT:-10993}
LMTP_PORT=${WILDT_RIG_LMTP_PORT:-10024}
SMTP_PORT=${WILDT_RIG_SMTP_PORT:-10025}
SMTPS_PORT=${WILDT_RIG_SMTPS_PORT:-10465}
# Sender authentication (DKIM), two hops as on the Internet: the players'
# provider (submission with SASL; OpenDKIM signs for example.org and
# example.net) relays to the club's MX (OpenDKIM verifies and stamps
# Authentication-Results as mx.club.example), which delivers to Dovecot.
SUBMIT_PORT=${WILDT_RIG_SUBMIT_PORT:-10587}
MX_PORT=${WILDT_RIG_MX_PORT:-10026}
SASL_PORT=${WILDT_RIG_SASL_PORT:-10012}
DKIM_SIGN_PORT=${WILDT_RIG_DKIM_SIGN_PORT:-10892}
DKIM_VERIFY_PORT=${WILDT_RIG_DKIM_VERIFY_PORT:-10891}
MX_AUTHSERV_ID=mx.club.example
DKIM_SELECTOR=rig

DOMAINS="club.example example.org example.net"

# Users as "address password"; the password is the local part + "pw".
rig_users() {
  local u
  # nosub: a mailbox whose server refuses sub-addresses (see no_subaddress).
  for u in chess@club.example anna@example.org ben@example.net nosub@club.example; do
    echo "$u ${u%%@*}pw"
  done
  for i in $(seq -w 1 80); do
    echo "p$i@example.org p${i}pw"
  done
}

rig_log() { echo "mail-rig: $*" >&2; }
rig_die() { rig_log "error: $*"; exit 1; }

rig_install() {
  local need=()
  command -v dovecot >/dev/null || need+=(dovecot-imapd)
  [ -x /usr/lib/dovecot/lmtp ] || need+=(dovecot-lmtpd)
  [ -x /usr/lib/postfix/sbin/master ] || need+=(postfix)
  command -v openssl >/dev/null || need+=(openssl)
  command -v opendkim >/dev/null || need+=(opendkim)
  [ ${#need[@]} -eq 0 ] && return 0
  rig_log "installing ${need[*]}"
  # Debian asks what kind of mail system to set up; we configure our own.
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
}

# A live pid from a pid file, or nothing.
rig_pid() {
  local f=$1 pid
  [ -f "$f" ] || return 1
  pid=$(head -n1 "$f" 2>/dev/null | tr -dc 0-9)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

rig_port_open() { (exec 3<>"/dev/tcp/$RIG_HOST/$1") 2>/dev/null; }

rig_wait_ports() {
  local port
  for port in "$@"; do
    for _ in $(seq 1 150); do
      rig_port_open "$port" && continue 2
      sleep 0.1
    done
    rig_die "port $port did not open (logs in $MAILROOT/log)"
  done
}

rig_wait_ports_closed() {
  local port
  for port in "$@"; do
    for _ in $(seq 1 100); do
      rig_port_open "$port" || continue 2
      sleep 0.1
    done
    rig_die "port $port is still open"
  done
}

# Refuse to start over a port somebody else holds (another rig, another MAILROOT).
rig_ports_free() {
  local port
  for port in "$@"; do
    if rig_port_open "$port"; then
      rig_die "port $port on $RIG_HOST is already in use (another rig? set WILDT_RIG_*_PORT or stop it)"
    fi
  done
}

rig_prepare() {
  mkdir -p "$MAILROOT"/{run,state,home,log}
  # mktemp-style 0700 would keep the mail processes (user vmail) out.
  chmod 755 "$MAILROOT"
  getent passwd vmail >/dev/null ||
    useradd --system --home-dir /nonexistent --shell /usr/sbin/nologin vmail
  if [ ! -s "$MAILROOT/cert.pem" ] || [ ! -s "$MAILROOT/key.pem" ]; then
    # rustls refuses a self-signed cert without these two extensions
    # (CaUsedAsEndEntity); with them the cert is also usable as a CA file.
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=localhost" \
      -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
      -addext "basicConstraints=critical,CA:FALSE" -addext "extendedKeyUsage=serverAuth" \
      -keyout "$MAILROOT/key.pem" -out "$MAILROOT/cert.pem" 2>/dev/null
    chmod 644 "$MAILROOT/cert.pem"
    chmod 600 "$MAILROOT/key.pem"
  fi
  rig_dovecot_config
  rig_postfix_config
  rig_dkim_config
  chown -R vmail:vmail "$MAILROOT/home"
  cat > "$MAILROOT/env" <<ENV
export WILDT_RIG_ROOT=$MAILROOT
export WILDT_RIG_HOST=$RIG_HOST
export WILDT_RIG_IMAP_PORT=$IMAP_PORT
export WILDT_RIG_IMAPS_PORT=$IMAPS_PORT
export WILDT_RIG_LMTP_PORT=$LMTP_PORT
export WILDT_RIG_SMTP_PORT=$SMTP_PORT
export WILDT_RIG_SMTPS_PORT=$SMTPS_PORT
export WILDT_RIG_CA=$MAILROOT/cert.pem
export WILDT_RIG_SUBMIT_PORT=$SUBMIT_PORT
export WILDT_RIG_MX_PORT=$MX_PORT
export WILDT_RIG_SASL_PORT=$SASL_PORT
export WILDT_RIG_DKIM_SIGN_PORT=$DKIM_SIGN_PORT
export WILDT_RIG_DKIM_VERIFY_PORT=$DKIM_VERIFY_PORT
export WILDT_RIG_MX_AUTHSERV_ID=$MX_AUTHSERV_ID
ENV
}

rig_dovecot_config() {
  local vuid vgid
  vuid=$(id -u vmail)
  vgid=$(id -g vmail)
  rig_users | while read -r addr pw; do
    echo "$addr:{PLAIN}$pw::::::"
  done > "$MAILROOT/users"
  chmod 644 "$MAILROOT/users"
  cat > "$MAILROOT/dovecot.conf" <<CONF
# Written by scripts/mail-rig; no !include of /etc/dovecot: this is the whole config.
base_dir = $MAILROOT/run
state_dir = $MAILROOT/state
instance_name = wildt-rig-dovecot
log_path = $MAILROOT/log/dovecot.log
info_log_path = $MAILROOT/log/dovecot.log
protocols = imap lmtp
listen = $RIG_HOST
# STARTTLS is offered on the plain port, IMAPS on its own.
ssl = yes
ssl_cert = <$MAILROOT/cert.pem
ssl_key = <$MAILROOT/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
# Loopback is trusted: no growing auth penalty after the wrong-password tests.
login_trusted_networks = 127.0.0.0/8
auth_failure_delay = 0
mail_location = maildir:$MAILROOT/home/%u/Maildir
mail_fsync = never
first_valid_uid = $vuid
mail_uid = $vuid
mail_gid = $vgid
postmaster_address = postmaster@club.example
recipient_delimiter = +
lmtp_save_to_detail_mailbox = no
default_process_limit = 500
default_client_limit = 2000
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $MAILROOT/users
}
userdb {
  driver = static
  args = uid=$vuid gid=$vgid home=$MAILROOT/home/%u
}
service imap-login {
  inet_listener imap {
    address = $RIG_HOST
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = $RIG_HOST
    port = $IMAPS_PORT
    ssl = yes
  }
}
service lmtp {
  inet_listener lmtp {
    address = $RIG_HOST
    port = $LMTP_PORT
  }
  unix_listener lmtp {
    mode = 0666
  }
}
service auth {
  unix_listener auth-userdb {
    mode = 0666
  }
  # Postfix's SASL on the provider's submission port asks here.
  inet_listener auth-client {
    address = $RIG_HOST
    port = $SASL_PORT
  }
}
protocol imap {
  # Tests run in parallel, many as the referee from one address.
  mail_max_userip_connections = 500
  imap_idle_notify_interval = 2 mins
}
CONF
}

rig_postfix_config() {
  local pf=$MAILROOT/postfix master_src
  mkdir -p "$pf"/{etc,queue,data}
  chown postfix "$pf/data"
  cat > "$pf/etc/main.cf" <<C
# Written by scripts/mail-rig: loopback only, virtual domains -> Dovecot LMTP.
compatibility_level = 3.6
myhostname = rig.club.example
mydestination =
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
queue_directory = $pf/queue
data_directory = $pf/data
maillog_file_prefixes = $MAILROOT, /dev/stdout
maillog_file = $MAILROOT/log/postfix.log
alias_maps =
alias_database =
local_recipient_maps =
smtputf8_enable = no
biff = no
append_dot_mydomain = no
recipient_delimiter = +
virtual_mailbox_domains = $DOMAINS
# Unknown users in these domains are refused at RCPT time (550).
virtual_mailbox_maps = texthash:$pf/etc/vmailbox
# One address always answers 450, for tests of temporary failures; one
# mailbox takes no sub-addresses (nosub+anything is refused, as by a provider
# without them).
smtpd_recipient_restrictions = check_recipient_access texthash:$pf/etc/recipient_access, check_recipient_access regexp:$pf/etc/no_subaddress
virtual_transport = lmtp:inet:$RIG_HOST:$LMTP_PORT
# One recipient per LMTP delivery, as wildt's README asks of a deployment:
# Dovecot writes Delivered-To only into a copy with a single recipient, and
# wildt routes each copy of a mail to two game addresses by it.
lmtp_destination_recipient_limit = 1
smtpd_tls_cert_file = $MAILROOT/cert.pem
smtpd_tls_key_file = $MAILROOT/key.pem
smtpd_tls_security_level = may
smtpd_error_sleep_time = 0
smtpd_soft_error_limit = 1000
smtpd_hard_error_limit = 1000
in_flow_delay = 0
# Mail deferred during a Dovecot outage goes out within seconds of its return.
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 5s
C
  rig_users | while read -r addr _; do echo "$addr x"; done > "$pf/etc/vmailbox"
  echo "tempfail@club.example 450 4.2.1 Mailbox busy, try again later" > "$pf/etc/recipient_access"
  echo '/^nosub\+.*@club\.example$/ 550 5.1.1 User unknown' > "$pf/etc/no_subaddress"
  master_src=/etc/postfix/master.cf
  [ -f "$master_src" ] || master_src=/usr/share/postfix/master.cf.dist
  # Debian's master.cf with smtpd moved to our port and chroot turned off
  # everywhere, plus SMTPS (implicit TLS) on its own port.
  sed -E "s/^smtp( +)inet( +)n( +)-( +)y/$RIG_HOST:$SMTP_PORT inet n - n/; s/^([a-z0-9]+ +(unix|unix-dgram|inet|fifo) +[-ny] +[-ny] +)y /\1n /" \
    "$master_src" > "$pf/etc/master.cf"
  cat >> "$pf/etc/master.cf" <<M
$RIG_HOST:$SMTPS_PORT inet n - n - - smtpd
  -o smtpd_tls_wrappermode=yes
  -o smtpd_tls_security_level=encrypt
$RIG_HOST:$SUBMIT_PORT inet n - n - - smtpd
  -o syslog_name=postfix/provider
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_sasl_type=dovecot
  -o smtpd_sasl_path=inet:$RIG_HOST:$SASL_PORT
  -o smtpd_sasl_security_options=noanonymous
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
  -o smtpd_sender_login_maps=texthash:$pf/etc/sender_logins
  -o smtpd_sender_restrictions=reject_sender_login_mismatch
  -o smtpd_milters=inet:$RIG_HOST:$DKIM_SIGN_PORT
  -o milter_default_action=tempfail
  -o content_filter=smtp:[$RIG_HOST]:$MX_PORT
$RIG_HOST:$MX_PORT inet n - n - - smtpd
  -o syslog_name=postfix/mx
  -o myhostname=$MX_AUTHSERV_ID
  -o smtpd_milters=inet:$RIG_HOST:$DKIM_VERIFY_PORT
  -o milter_default_action=tempfail
M
  # A user may send only as themself on the provider's port.
  rig_users | while read -r addr _; do echo "$addr $addr"; done > "$pf/etc/sender_logins"
}

# One RSA key signs for both player domains (selector "rig"); the verifier
# reads its public half from a file in place of DNS (OpenDKIM's
# TestPublicKeys), so no resolver is needed.
rig_dkim_config() {
  local d=$MAILROOT/dkim pub
  mkdir -p "$d"
  if [ ! -s "$d/rig.key" ]; then
    openssl genrsa -out "$d/rig.key" 2048 2>/dev/null
  fi
  chmod 600 "$d/rig.key"
  pub=$(openssl rsa -in "$d/rig.key" -pubout -outform DER 2>/dev/null | base64 -w0)
  : > "$d/public-keys"
  for domain in example.org example.net; do
    echo "$DKIM_SELECTOR._domainkey.$domain v=DKIM1; k=rsa; p=$pub" >> "$d/public-keys"
  done
  cat > "$d/sign.conf" <<C
# The players' provider: signs everything its users submit.
Mode s
Socket inet:$DKIM_SIGN_PORT@$RIG_HOST
PidFile $MAILROOT/run/opendkim-sign.pid
Domain example.org,example.net
Selector $DKIM_SELECTOR
KeyFile $d/rig.key
# The rig lives under /tmp, which OpenDKIM counts as an unsafe place for keys.
RequireSafeKeys no
InternalHosts $RIG_HOST
Canonicalization relaxed/relaxed
C
  cat > "$d/verify.conf" <<C
# The club's MX: verifies, stamps Authentication-Results with its own
# authserv-id (also on unsigned mail: dkim=none), and removes any such header
# that arrived with the message (a forger's copy).
Mode v
Socket inet:$DKIM_VERIFY_PORT@$RIG_HOST
PidFile $MAILROOT/run/opendkim-verify.pid
AuthservID $MX_AUTHSERV_ID
AlwaysAddARHeader yes
RemoveARFrom $MX_AUTHSERV_ID
RemoveARAll yes
TestPublicKeys $d/public-keys
InternalHosts 192.0.2.1
C
}

rig_start_dkim() {
  local which
  for which in sign verify; do
    if rig_pid "$MAILROOT/run/opendkim-$which.pid" >/dev/null; then
      continue
    fi
    opendkim -x "$MAILROOT/dkim/$which.conf" </dev/null >>"$MAILROOT/log/opendkim-start.out" 2>&1 ||
      rig_die "opendkim ($which) did not start: $(tail -n 5 "$MAILROOT/log/opendkim-start.out")"
  done
  rig_wait_ports "$DKIM_SIGN_PORT" "$DKIM_VERIFY_PORT"
}

rig_stop_dkim() {
  rig_stop_pid "opendkim (sign)" "$MAILROOT/run/opendkim-sign.pid"
  rig_stop_pid "opendkim (verify)" "$MAILROOT/run/opendkim-verify.pid"
}

rig_dovecot_pidfile() { echo "$MAILROOT/run/master.pid"; }
rig_postfix_pidfile() { echo "$MAILROOT/postfix/queue/pid/master.pid"; }

rig_start_dovecot() {
  if rig_pid "$(rig_dovecot_pidfile)" >/dev/null; then
    rig_log "dovecot already running"
  else
    rig_ports_free "$IMAP_PORT" "$IMAPS_PORT" "$LMTP_PORT" "$SASL_PORT"
    # Daemonizes; its master pid lands in base_dir/master.pid. No inherited
    # stdio: a daemon holding our caller's pipe would keep `start.sh | x` open.
    dovecot -c "$MAILROOT/dovecot.conf" </dev/null >>"$MAILROOT/log/dovecot-start.out" 2>&1 ||
      rig_die "dovecot did not start: $(tail -n 5 "$MAILROOT/log/dovecot-start.out"); see also $MAILROOT/log/dovecot.log"
  fi
  rig_wait_ports "$IMAP_PORT" "$IMAPS_PORT" "$LMTP_PORT" "$SASL_PORT"
}

rig_start_postfix() {
  if rig_pid "$(rig_postfix_pidfile)" >/dev/null; then
    rig_log "postfix already running"
  else
    rig_ports_free "$SMTP_PORT" "$SMTPS_PORT" "$SUBMIT_PORT" "$MX_PORT"
    postfix -c "$MAILROOT/postfix/etc" check </dev/null >>"$MAILROOT/log/postfix-start.out" 2>&1 ||
      rig_die "postfix check failed: $(tail -n 5 "$MAILROOT/log/postfix-start.out")"
    postfix -c "$MAILROOT/postfix/etc" start </dev/null >>"$MAILROOT/log/postfix-start.out" 2>&1 ||
      rig_die "postfix did not start: $(tail -n 5 "$MAILROOT/log/postfix-start.out"); see also $MAILROOT/log/postfix.log"
  fi
  rig_wait_ports "$SMTP_PORT" "$SMTPS_PORT" "$SUBMIT_PORT" "$MX_PORT"
}

# The processes of the session a daemon's master leads (it called setsid, so
# the session id is its pid): its workers, even once orphaned.
rig_session_pids() {
  ps -eo pid=,sid= | awk -v sid="$1" '$2 == sid && $1 != sid { print $1 }'
}

# Stop by our own pid file only, and wait until the process is gone. Then end
# the workers it left behind: Dovecot's imap processes outlive their master
# and would keep serving open sessions, which is no outage.
rig_stop_pid() {
  local name=$1 pidfile=$2 pid left
  pid=$(rig_pid "$pidfile") || { rig_log "$name not running"; return 0; }
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    rig_log "$name (pid $pid) ignored TERM; sending KILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
  for sig in TERM TERM TERM KILL; do
    left=$(rig_session_pids "$pid")
    [ -n "$left" ] || return 0
    # shellcheck disable=SC2086
    kill -"$sig" $left 2>/dev/null || true
    sleep 0.2
  done
}

rig_stop_dovecot() {
  local master kids="" kid
  if master=$(rig_pid "$(rig_dovecot_pidfile)"); then
    kids=$(pgrep -P "$master" || true)
  fi
  rig_stop_pid dovecot "$(rig_dovecot_pidfile)"
  # A client's imap process can outlive the master and keep serving its
  # session; an outage must drop every client, so stop those too.
  for kid in $kids; do
    kill "$kid" 2>/dev/null || true
  done
  for kid in $kids; do
    for _ in $(seq 1 50); do
      kill -0 "$kid" 2>/dev/null || continue 2
      sleep 0.1
    done
    kill -KILL "$kid" 2>/dev/null || true
  done
  rig_wait_ports_closed "$IMAP_PORT" "$IMAPS_PORT" "$LMTP_PORT" "$SASL_PORT"
}

rig_stop_postfix() {
  if rig_pid "$(rig_postfix_pidfile)" >/dev/null; then
    postfix -c "$MAILROOT/postfix/etc" stop 2>/dev/null || true
  fi
  rig_stop_pid postfix "$(rig_postfix_pidfile)"
  rig_wait_ports_closed "$SMTP_PORT" "$SMTPS_PORT" "$SUBMIT_PORT" "$MX_PORT"
}

# stop.sh and ctl.sh use the ports start.sh wrote down, not today's env.
rig_load_env() {
  if [ -f "$MAILROOT/env" ]; then
    # shellcheck disable=SC1091
    . "$MAILROOT/env"
    IMAP_PORT=$WILDT_RIG_IMAP_PORT
    IMAPS_PORT=$WILDT_RIG_IMAPS_PORT
    LMTP_PORT=$WILDT_RIG_LMTP_PORT
    SMTP_PORT=$WILDT_RIG_SMTP_PORT
    SMTPS_PORT=${WILDT_RIG_SMTPS_PORT:-$SMTPS_PORT}
    SUBMIT_PORT=${WILDT_RIG_SUBMIT_PORT:-$SUBMIT_PORT}
    MX_PORT=${WILDT_RIG_MX_PORT:-$MX_PORT}
    SASL_PORT=${WILDT_RIG_SASL_PORT:-$SASL_PORT}
    DKIM_SIGN_PORT=${WILDT_RIG_DKIM_SIGN_PORT:-$DKIM_SIGN_PORT}
    DKIM_VERIFY_PORT=${WILDT_RIG_DKIM_VERIFY_PORT:-$DKIM_VERIFY_PORT}
  fi
}
