#!/bin/bash
# Fuzzes the pure core with cargo-fuzz (libFuzzer), the three targets at once:
#   notation  any text through the ICCF parser and the legality check
#   intake    any bytes as a mail through the whole intake and decision
#             (game address, loop check, command, sender authentication,
#             referee, the mails to write)
#   xfcc      any bytes as an Xfcc (SOAP) request body: the envelope read or
#             refused, the move's SAN read, the fault written and read back
# Usage: scripts/fuzz.sh [SECONDS]   (each target runs SECONDS; default 60)
# Installs cargo-fuzz (pinned, --locked) if missing. Seeds: fuzz/seeds/ and
# the mail fixtures; what a run finds stays in fuzz/corpus/ for the next.
# Fails on a panic, on an input that takes over 10 s (unbounded work), or on
# more than 2 GiB of memory; the input is saved under fuzz/artifacts/.
# Built without a sanitizer (`-s none`; the core is safe Rust) but with debug
# assertions and overflow checks (`-a`). Does IO: cargo install, builds, runs.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz.sh: installing cargo-fuzz" >&2
  # A debug build: it only drives the fuzzer, and builds in half the time.
  cargo install cargo-fuzz --version 0.13.2 --locked --debug --quiet
fi
# cargo-fuzz passes -Z flags to rustc; the toolchain here is a stable one.
export RUSTC_BOOTSTRAP=1
cd fuzz
flags=(-O -a -s none)
started=$(date +%s)
cargo fuzz build "${flags[@]}" 2>&1 | tail -n 1
echo "fuzz.sh: built in $(($(date +%s) - started)) s" >&2
mkdir -p corpus/notation corpus/intake corpus/xfcc artifacts

# run TARGET SEED_DIR [LIBFUZZER_OPTION...]
run() {
  local target=$1 seeds=$2
  shift 2
  cargo fuzz run "${flags[@]}" "$target" "corpus/$target" "$seeds" -- \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    "$@" >"artifacts/$target.log" 2>&1
}
run notation seeds/notation &
notation=$!
run intake ../tests/fixtures/mail -max_len=65536 &
intake=$!
# The server refuses bodies over 64 KiB unread.
run xfcc seeds/xfcc -max_len=65536 &
xfcc=$!

failed=0
for target in notation intake xfcc; do
  pid=${!target}
  if wait "$pid"; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "artifacts/$target.log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "artifacts/$target.log")
    last=$(grep -E '^#[0-9]+' "artifacts/$target.log" | tail -n 1)
    echo "fuzz.sh: $target: no crash in ${secs} s: $runs inputs ($rate/s); $last"
  else
    failed=1
    echo "fuzz.sh: $target FAILED; the end of its log (fuzz/artifacts/$target.log):"
    tail -n 40 "artifacts/$target.log"
  fi
done
exit "$failed"
