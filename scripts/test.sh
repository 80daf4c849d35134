#!/bin/bash
# The project's test command (CI runs it through .ci/run): starts the mail rig
# (scripts/mail-rig), then cargo fmt --check, clippy with warnings as errors,
# and every test; stops the rig it started on exit.
# If WILDT_RIG_ROOT is already set (a rig you started and sourced), that rig
# is used and left running. Does IO: installs and runs mail servers, builds.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${WILDT_RIG_ROOT:-}" ] && [ -f "$WILDT_RIG_ROOT/env" ]; then
  echo "test.sh: using the running rig in $WILDT_RIG_ROOT" >&2
else
  export MAILROOT=${MAILROOT:-${TMPDIR:-/tmp}/wildt-test-rig}
  trap 'scripts/mail-rig/stop.sh' EXIT
  scripts/mail-rig/start.sh >/dev/null
  # shellcheck disable=SC1091
  . "$MAILROOT/env"
fi

cargo fmt --check
cargo clippy --all-targets --locked -- -D warnings
cargo test --locked
