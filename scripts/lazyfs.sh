#!/bin/bash
# LazyFS for the power-cut tests (tests/it/powercut.rs): a FUSE file system
# with its own page cache, whose unsynced data `lazyfs::clear-cache` drops
# as a power cut would. Does IO: installs Debian packages, builds, mounts.
#
#   scripts/lazyfs.sh build [OUT]   install the build deps and fuse3 (once),
#                                   build LazyFS into OUT (default
#                                   $CARGO_TARGET_DIR or target/, /lazyfs),
#                                   print the path of the lazyfs binary
#   scripts/lazyfs.sh mount DIR     mount DIR/mnt over DIR/root, the FIFO at
#                                   DIR/faults.fifo, extra [[injection]]
#                                   tables read from DIR/injections.toml if
#                                   present; returns once the mount is up
#   scripts/lazyfs.sh umount DIR    unmount DIR/mnt and wait for LazyFS to end
#
# The sources are in ../shared/tools/lazyfs (WILDT_SHARED overrides where
# ../shared is); the build never writes there.
set -euo pipefail
ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null ||
  { cd "$(dirname "$0")/.." && pwd; })
SRC=${WILDT_SHARED:-$ROOT/../shared}/tools/lazyfs
# In a git worktree ../shared is beside the main checkout.
if [ -z "${WILDT_SHARED:-}" ] && [ ! -d "$SRC" ]; then
  if common=$(cd "$ROOT" && cd "$(git rev-parse --git-common-dir)/.." && pwd); then
    SRC=$common/../shared/tools/lazyfs
  fi
fi
OUT=${LAZYFS_OUT:-${CARGO_TARGET_DIR:-$ROOT/target}/lazyfs}

install_deps() {
  local need=()
  for p in cmake g++ libfuse3-dev fuse3 libspdlog-dev libtoml11-dev; do
    dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
  done
  if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  fi
  if [ ! -e /dev/fuse ]; then
    modprobe fuse 2>/dev/null || true
  fi
  [ -e /dev/fuse ] || { echo "lazyfs.sh: no /dev/fuse (modprobe fuse failed)" >&2; exit 1; }
}

build() {
  local out=${1:-$OUT}
  mkdir -p "$out"
  # Two tests may mount at once on a fresh machine: one installs and
  # builds, the other waits for it.
  exec 9>"$out/.lock"
  flock 9
  install_deps
  if [ ! -x "$out/lazyfs" ]; then
    [ -x "$SRC/build.sh" ] || { echo "lazyfs.sh: no LazyFS sources in $SRC" >&2; exit 1; }
    "$SRC/build.sh" "$out" >"$out/build.log" 2>&1 || { cat "$out/build.log" >&2; exit 1; }
  fi
  flock -u 9
  echo "$out/lazyfs"
}

mount_at() {
  local dir=$1 bin
  bin=$(build)
  mkdir -p "$dir/root" "$dir/mnt"
  local cfg=$dir/lazyfs.toml
  cat >"$cfg" <<CFG
[faults]
fifo_path="$dir/faults.fifo"
[cache]
apply_eviction=false
[cache.simple]
custom_size="${LAZYFS_CACHE:-64mb}"
blocks_per_page=1
[filesystem]
log_all_operations=${LAZYFS_LOG_ALL:-false}
logfile="$dir/lazyfs.log"
CFG
  [ ! -f "$dir/injections.toml" ] || cat "$dir/injections.toml" >>"$cfg"
  rm -f "$dir/faults.fifo"
  LD_LIBRARY_PATH=$(dirname "$bin") setsid "$bin" "$dir/mnt" --config-path "$cfg" \
    -o allow_other -o modules=subdir -o "subdir=$dir/root" -f \
    >"$dir/lazyfs.out" 2>&1 </dev/null &
  echo $! >"$dir/lazyfs.pid"
  for _ in $(seq 1 200); do
    if mountpoint -q "$dir/mnt" && [ -p "$dir/faults.fifo" ]; then
      return 0
    fi
    kill -0 "$(cat "$dir/lazyfs.pid")" 2>/dev/null || break
    sleep 0.05
  done
  echo "lazyfs.sh: LazyFS did not mount $dir/mnt:" >&2
  cat "$dir/lazyfs.out" >&2
  exit 1
}

umount_at() {
  # LazyFS is ended first, by SIGKILL: what its cache still holds is lost,
  # as in a power cut (its own exit after an unmount takes seconds).
  local dir=$1
  if [ -f "$dir/lazyfs.pid" ]; then
    kill -9 "$(cat "$dir/lazyfs.pid")" 2>/dev/null || true
    rm -f "$dir/lazyfs.pid"
  fi
  # Listed in the mount table even when LazyFS is gone, where mountpoint(1)
  # only sees a dead endpoint.
  if awk -v m="$dir/mnt" '$2 == m { found = 1 } END { exit !found }' /proc/self/mounts; then
    fusermount3 -u -z "$dir/mnt" 2>/dev/null || umount -l "$dir/mnt"
  fi
}

case "${1:-}" in
  build) build "${2:-}" ;;
  mount) mount_at "$2" ;;
  umount) umount_at "$2" ;;
  *) echo "usage: $0 build [OUT] | mount DIR | umount DIR" >&2; exit 2 ;;
esac
