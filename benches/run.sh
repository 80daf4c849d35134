#!/bin/bash
# benches/run.sh — runs every wildt benchmark and prints one table (wildt,
# the baseline script benches/harness/baseline/referee.py, ratio, target met?).
# The Python drivers it runs live in benches/harness/.
#   benches/run.sh [--quick] [--only STAGE...]   STAGE: engine pipeline servers daemon burst scale
# Builds release once (binary + bench_mkgames example), starts a private mail rig
# on ports 12xxx in the work file system (stopped at the end), writes JSON results
# to $RESULTS (default /tmp/wildt-bench/results) and the table to stdout.
# --quick: small N for a smoke run (about 3 minutes). Does IO: builds, daemons,
# files under /tmp/wildt-bench, and (as root) a loop-mounted file system.
#
# The stages' work (databases, Maildirs, file outboxes, the rig's mail and
# queue) goes on an ext4 file system made fresh for the run by mkfs.ext4 with
# its defaults, a journal among them, as a Debian install makes it
# (BENCH_FS=host: in /tmp itself). This machine's root ext4 has no journal;
# there the kernel skips inodes freed in the last minutes when it makes a file
# (ialloc.c, recently_deleted), reading each one's inode table block: after
# 20,000 files were deleted, making 20,000 cost 14 times as much, for minutes,
# and took half of wildt's CPU in a profiled pipeline run (find_inode_bit).
# Postfix deletes a queue file per mail and each stage deletes the last run's
# folders, so what a stage measured depended on what ran before it.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
QUICK=0
STAGES=(engine pipeline servers daemon burst scale)
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1 ;;
    --only) shift; STAGES=("$@"); break ;;
    *) echo "usage: $0 [--quick] [--only STAGE...]" >&2; exit 2 ;;
  esac
  shift
done
RESULTS=${RESULTS:-/tmp/wildt-bench/results}
mkdir -p "$RESULTS"
CLEANUP=()
cleanup() { local c; for c in "${CLEANUP[@]}"; do eval "$c" || true; done; }
trap cleanup EXIT

WORK=/tmp/wildt-bench
FS_NOTE="host file system (BENCH_FS=host)"
if [ "${BENCH_FS:-fresh}" = fresh ]; then
  if [ "$(id -u)" = 0 ] && command -v mkfs.ext4 >/dev/null && command -v losetup >/dev/null; then
    IMG=/tmp/wildt-bench-fs.img
    MNT=/tmp/wildt-bench-fs
    if mountpoint -q "$MNT"; then umount "$MNT"; fi
    rm -f "$IMG"
    truncate -s 64G "$IMG"
    mkfs.ext4 -q -F "$IMG"
    mkdir -p "$MNT"
    # noinit_itable: ext4 would zero the new file system's inode tables
    # in the background (ext4lazyinit) for minutes after mkfs, beside the
    # first stages: a `--only scale` run's empty runs took 272 ms instead
    # of 15 (its per-move figures came out negative).
    mount -o loop,noinit_itable "$IMG" "$MNT"
    CLEANUP+=("umount $MNT" "rm -f $IMG")
    WORK=$MNT
    FS_NOTE="ext4 made fresh for the run by mkfs.ext4 with its defaults (journal), on a loop device"
  else
    echo "run.sh: not root or no mkfs.ext4/losetup: the stages work in /tmp, whose history of deleted files can skew them" >&2
    FS_NOTE="host file system (no root for a fresh one)"
  fi
fi
echo "{\"work\": \"$FS_NOTE\"}" > "$RESULTS/fs.json"
python3 -c 'import chess' 2>/dev/null || pip install --quiet chess

cargo build --release --bin wildt --example bench_mkgames

has() { local s; for s in "${STAGES[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }
if [ $QUICK = 1 ]; then
  PIPE=(--games 100 --plies 10); SERV=(--games 50 --plies 2); DAEM=(--moves 20 --idle-secs 5); BURST=(--games 50 --plies 2 --probes 5)
  SCALE=(--games 50 --ply 40 --big 5000 --rounds 1); CRIT=(--warm-up-time 0.5 --measurement-time 1)
else
  PIPE=(--games 1000 --plies 10); SERV=(--games 500 --plies 2); DAEM=(--moves 200 --idle-secs 60 --baseline-poll 1); BURST=(--games 500 --plies 2 --probes 30)
  SCALE=(--games 200 --ply 300 --big 100000 --rounds 7); CRIT=(--warm-up-time 1 --measurement-time 3)
fi

RIG_STARTED=0
rig() {
  [ $RIG_STARTED = 1 ] && return
  MAILROOT=$WORK/rig-bench WILDT_RIG_IMAP_PORT=12143 WILDT_RIG_IMAPS_PORT=12993 WILDT_RIG_LMTP_PORT=12024 \
    WILDT_RIG_SMTP_PORT=12025 WILDT_RIG_SMTPS_PORT=12465 WILDT_RIG_SUBMIT_PORT=12587 WILDT_RIG_MX_PORT=12026 \
    WILDT_RIG_SASL_PORT=12012 WILDT_RIG_DKIM_SIGN_PORT=12892 WILDT_RIG_DKIM_VERIFY_PORT=12891 "$ROOT/scripts/mail-rig/start.sh" >/dev/null </dev/null 2>&1
  # Dovecot learns of new mail by inotify, else only every
  # mailbox_idle_check_interval (30 s). On the shared bench machine IDLE woke
  # only every 30 s (likely inotify instances exhausted: max_user_instances is
  # 128), which measures Dovecot, not wildt: bound it to 1 s on this private rig.
  if ! grep -q '^mailbox_idle_check_interval' "$WORK/rig-bench/dovecot.conf"; then
    sed -i '/^mail_location/a mailbox_idle_check_interval = 1 secs' "$WORK/rig-bench/dovecot.conf"
    doveadm -c "$WORK/rig-bench/dovecot.conf" reload || echo "run.sh: dovecot reload failed; IDLE may wake only every 30 s" >&2
  fi
  # shellcheck disable=SC1091
  . "$WORK/rig-bench/env"
  export WILDT_RIG_HOST WILDT_RIG_IMAP_PORT WILDT_RIG_SMTP_PORT
  RIG_STARTED=1
  # Stopped before the file system under it is unmounted.
  CLEANUP=("MAILROOT=$WORK/rig-bench $ROOT/scripts/mail-rig/stop.sh >/dev/null 2>&1" "${CLEANUP[@]}")
}

if has engine; then
  echo "== engine (criterion)" >&2
  cargo bench --bench engine -- "${CRIT[@]}" 2>&1 | tee "$RESULTS/engine.txt" >&2
fi
cd "$ROOT/benches/harness"
if has pipeline; then
  echo "== pipeline" >&2
  python3 bench_pipeline.py --work "$WORK/pipeline" "${PIPE[@]}" --out "$RESULTS/pipeline.json" >&2
fi
if has servers; then
  echo "== servers" >&2
  rig
  python3 bench_servers.py --work "$WORK/servers" "${SERV[@]}" --out "$RESULTS/servers.json" >&2
  # Again with Postfix holding what it accepts until each measurement ends
  # (delivered into Dovecot between them): the runs above are as fast as
  # Dovecot's deliveries during them leave the two cores (which made some
  # runs far slower than others).
  python3 bench_servers.py --work "$WORK/servers-held" "${SERV[@]}" --hold --out "$RESULTS/servers-held.json" >&2
fi
if has daemon; then
  echo "== daemon (latency, footprint)" >&2
  rig
  python3 bench_daemon.py --work "$WORK/daemon" "${DAEM[@]}" --out "$RESULTS/daemon.json" >&2
fi
if has burst; then
  echo "== burst (latency while 1,000 moves are handled)" >&2
  rig
  # As an organiser would run it: [outbox] send_rate near what the relay
  # delivers (this rig's Postfix: 110-130 mails/s into Dovecot), so the
  # backlog waits in wildt's outbox, whose claims take a fresh player's
  # reply first, not in the relay's queue, which is first come first
  # served. Then without send_rate, for comparison.
  python3 bench_burst.py --work "$WORK/burst" "${BURST[@]}" --send-rate 150 --out "$RESULTS/burst.json" >&2
  python3 bench_burst.py --work "$WORK/burst" "${BURST[@]}" --out "$RESULTS/burst-unpaced.json" >&2
fi
if has scale; then
  echo "== scale" >&2
  python3 bench_scale.py --work "$WORK/scale" "${SCALE[@]}" --out "$RESULTS/scale.json" >&2
  # The same ply rounds answered by one running `wildt serve` (no
  # 100,000-game database): what a move costs a daemon that has already
  # touched what it needs, without a new process's first use of each page.
  python3 bench_scale.py --daemon --work "$WORK/scale-daemon" "${SCALE[@]}" --out "$RESULTS/scale-daemon.json" >&2
fi
python3 table.py "$RESULTS"
