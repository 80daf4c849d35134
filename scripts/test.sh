#!/bin/bash
# The project's test command (CI runs it through .ci/run): starts the mail rig
# (scripts/mail-rig) and a test PostgreSQL (scripts/pg-rig), then cargo fmt --check, clippy with warnings as errors,
# cargo deny (the dependencies' licences and sources, deny.toml), the Debian
# package (scripts/package.sh, dev profile: the package test checks
# its contents, not an optimised binary), and every test, then a short fuzz
# run of the pure core (scripts/fuzz.sh, a minute per target); stops the rig
# it started on exit.
# The end-to-end scenarios that stop the rig's servers (e2e::outage) are left
# out of the main run and run alone afterwards; the e2e runs show what they
# did (--nocapture).
# If WILDT_RIG_ROOT is already set (a rig you started and sourced), that rig
# is used and left running. Does IO: installs and runs mail servers, builds.
set -euo pipefail
cd "$(dirname "$0")/.."

# tests/it/systemd.rs checks the unit with systemd-analyze; the board,
# language and site tests look at pages in headless Chromium (Debian's
# chromium, with fonts that have the chess pieces); tests/it/package.rs
# unpacks the .deb with dpkg, and dpkg-dev's dpkg-shlibdeps names the
# libraries the binary links, for the package's Depends and for the test.
need=()
command -v systemd-analyze >/dev/null || need+=(systemd)
command -v dpkg-deb >/dev/null || need+=(dpkg)
command -v dpkg-shlibdeps >/dev/null || need+=(dpkg-dev)
# tests/it/package.rs runs Debian's package checker on the .deb.
command -v lintian >/dev/null || need+=(lintian)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
browser=()
command -v chromium >/dev/null || browser+=(chromium)
if [ ${#need[@]} -gt 0 ] || [ ${#browser[@]} -gt 0 ]; then
  apt-get update -qq
  export DEBIAN_FRONTEND=noninteractive
  [ ${#need[@]} -eq 0 ] || apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  # Chromium with what Debian recommends beside it (fonts, the sandbox helper).
  [ ${#browser[@]} -eq 0 ] || apt-get install -y -qq "${browser[@]}" >/dev/null
fi

# tests/it/xfcc_clients.rs plays through real Xfcc clients: Scid's own Xfcc
# code (Debian's scid, run by tclsh with tdom and tcllib) and zeep
# (python3-zeep, run by /usr/bin/python3).
xfcc=()
[ -f /usr/share/scid/tcl/tools/correspondence.tcl ] || xfcc+=(scid)
dpkg -s tdom >/dev/null 2>&1 || xfcc+=(tdom)
dpkg -s tcllib >/dev/null 2>&1 || xfcc+=(tcllib)
dpkg -s python3-zeep >/dev/null 2>&1 || xfcc+=(python3-zeep)
if [ ${#xfcc[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${xfcc[@]}" >/dev/null
fi

if [ -n "${WILDT_RIG_ROOT:-}" ] && [ -f "$WILDT_RIG_ROOT/env" ]; then
  echo "test.sh: using the running rig in $WILDT_RIG_ROOT" >&2
else
  export MAILROOT=${MAILROOT:-${TMPDIR:-/tmp}/wildt-test-rig}
  stop_mail=1
  trap 'scripts/mail-rig/stop.sh' EXIT
  scripts/mail-rig/start.sh >/dev/null
  # shellcheck disable=SC1091
  . "$MAILROOT/env"
fi
# The test PostgreSQL (scripts/pg-rig: Debian's postgresql on loopback with
# its own data directory), unless one is running and sourced
# (WILDT_PG_URL); tests create a database each in it.
if [ -z "${WILDT_PG_URL:-}" ]; then
  export PGROOT=${PGROOT:-${TMPDIR:-/tmp}/wildt-test-pg}
  trap 'scripts/pg-rig/stop.sh; [ -z "${stop_mail:-}" ] || scripts/mail-rig/stop.sh' EXIT
  # shellcheck disable=SC1091
  . "$(scripts/pg-rig/start.sh)"
fi

cargo fmt --check
cargo clippy --all-targets --locked -- -D warnings
# Every dependency's licence can be combined with GPL-3.0-or-later, and every
# crate comes from crates.io (deny.toml).
command -v cargo-deny >/dev/null || cargo install cargo-deny --locked --version 0.20.2
cargo deny --locked check licenses bans sources
# tests/it/package.rs unpacks the .deb named by WILDT_DEB.
command -v cargo-deb >/dev/null || cargo install cargo-deb --locked --version 3.8.0
WILDT_DEB=$(pwd)/$(scripts/package.sh --profile dev)
export WILDT_DEB
# tests/it/tablebase.rs probes the complete 3-4 piece Syzygy set kept in the
# shared directory beside the project.
WILDT_SYZYGY=${WILDT_SYZYGY:-$(git rev-parse --show-toplevel 2>/dev/null || pwd)/../shared/syzygy}
export WILDT_SYZYGY
# The power-cut tests (tests/it/powercut) run wildt on LazyFS: its build
# dependencies, fuse3 and the build itself (into the target directory),
# before the tests that mount it.
scripts/lazyfs.sh build >/dev/null
# Everything but the e2e scenarios and the fault test, then those (in parallel, with their
# output), then the ones that stop servers, alone.
cargo test --locked -- --skip e2e:: --skip pg_fault
cargo test --locked --test it e2e:: -- --skip e2e::outage --nocapture
cargo test --locked --test it e2e::outage -- --test-threads=1 --nocapture
# The integration suite a second time on PostgreSQL: every test's store is a
# fresh database of the test PostgreSQL (tests/it/support/cli.rs). Left out:
# tests that look at SQLite itself or never open a store, each listed with
# why; the e2e scenarios (run below) and the fault test (run alone after).
pg_skip=(
  # SQLite itself: LazyFS power cuts under its file and WAL.
  --skip powercut::
  # The SQLite file: VACUUM gives the file's space back.
  --skip serve_maildir::after_a_backlog_of_replies_is_sent_the_database_gives_its_space_back
  # The SQLite file: status reads it and backup copies it (PostgreSQL's
  # backup is refused with its own advice, tested in the first pass).
  --skip ops_cli::status_tells_daemon_outbox_and_failures_and_backup_copies_a_running_database
  # Both backends at once already: the schema comparison and the copy from
  # SQLite to PostgreSQL.
  --skip schema:: --skip migrate::
  # The .deb package's contents and lintian.
  --skip package::
  # No store: notation, intake, fixtures, the IMAP and SMTP transports,
  # the systemd unit.
  --skip notation --skip intake:: --skip support::fixtures
  --skip imap_inbox:: --skip smtp_transport:: --skip systemd::
  # SQLite's own upgrades and planner: databases from before a migration (a
  # PostgreSQL database starts at the consolidated schema, and the window's
  # test goes back to a pre-24 SQLite schema), EXPLAIN QUERY PLAN.
  --skip games::a_database_from_before_the_parts_has_its_long_games_sealed
  --skip games::a_database_from_before_the_plies_texts_gets_one_for_every_game
  --skip games::answers_recorded_before_the_upgrade_still_count_against_the_hourly_limit
  --skip games::the_history_finds_a_games_refused_messages_through_their_own_index
  --skip games::a_move_leaves_the_repetition_window_unread_and_a_claim_reads_it_from_the_moves
  # Restarts PostgreSQL: run alone below.
  --skip pg_fault
  # Run in their own invocations below.
  --skip e2e::
)
WILDT_TEST_BACKEND=postgres cargo test --locked --test it -- "${pg_skip[@]}"
# The e2e scenarios on PostgreSQL, but: operator (backups of the SQLite
# file) and outage (stops the rig's servers; run alone on SQLite).
WILDT_TEST_BACKEND=postgres cargo test --locked --test it e2e:: -- --skip e2e::outage \
  --skip e2e::operator --nocapture
# The fault test restarts the test PostgreSQL: alone, after everything else.
cargo test --locked --test it pg_fault -- --test-threads=1 --nocapture
# The three fuzz targets at once, a minute each (FUZZ_SECONDS to change it).
scripts/fuzz.sh "${FUZZ_SECONDS:-60}"
