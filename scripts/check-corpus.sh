#!/bin/bash
# Prints what `wildt check --json` says of every mail fixture under four
# configurations, one file per (configuration, fixture), into OUT: a
# redesign that must not change behaviour is run twice (old and new build)
# and the two folders compared with `diff -r`.
#   scripts/check-corpus.sh WILDT_BINARY OUT
# The configurations: no game; game 17 at the start (the fixtures' keys);
# the same under policy "key+auth" with a trusted MX; game 17 six plies in.
# The clock is fixed (WILDT_NOW) so deadlines and dates do not move.
# Does IO: writes under OUT and a temporary folder.
set -euo pipefail
bin=$(realpath "$1")
out=$(realpath -m "$2")
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export WILDT_NOW=2026-11-20T12:00:00Z
mkdir -p "$out"

config() { # NAME POLICY [TRUSTED]
  local dir=$work/$1
  mkdir -p "$dir/mail/new" "$dir/mail/cur" "$dir/mail/tmp" "$dir/outbox"
  {
    echo '[referee]'
    echo 'address = "chess@club.example"'
    echo 'name = "Club referee"'
    echo '[database]'
    echo "url = \"sqlite://$dir/wildt.db\""
    echo '[inbox]'
    echo 'kind = "maildir"'
    echo "path = \"$dir/mail\""
    echo '[outbox]'
    echo 'kind = "file"'
    echo "path = \"$dir/outbox\""
    echo '[security]'
    echo "policy = \"$2\""
    [ -z "${3:-}" ] || echo "trusted_authserv_id = \"$3\""
  } > "$dir/wildt.toml"
}

game_17() { # NAME: 17 games, the 17th with the fixtures' keys
  local cfg=$work/$1/wildt.toml
  for i in $(seq 1 17); do
    "$bin" --config "$cfg" game new --no-mail \
      --white anna@example.org --black ben@example.net >/dev/null
  done
  sqlite3 "$work/$1/wildt.db" \
    "UPDATE games SET white_key = 'k3x9qp2m', black_key = 'b7y2wq4n' WHERE id = 17"
}

config nogame key
"$bin" --config "$work/nogame/wildt.toml" game list >/dev/null
config start key
game_17 start
config keyauth key+auth mx.club.example
game_17 keyauth
config sixin key
game_17 sixin
seat=white
for mv in 5254 5755 7163 2836 6125 1716; do
  "$bin" --config "$work/sixin/wildt.toml" game move 17 "$mv" --as "$seat" --no-mail >/dev/null 2>&1 ||
    "$bin" --config "$work/sixin/wildt.toml" game move 17 "$mv" --as "$seat" >/dev/null
  [ "$seat" = white ] && seat=black || seat=white
done

n=0
for c in nogame start keyauth sixin; do
  mkdir -p "$out/$c"
  for eml in "$here"/tests/fixtures/mail/*.eml; do
    name=$(basename "$eml" .eml)
    set +e
    "$bin" --config "$work/$c/wildt.toml" check --json "$eml" >"$out/$c/$name.json" 2>"$out/$c/$name.err"
    echo "exit $?" >>"$out/$c/$name.err"
    set -e
    n=$((n + 1))
  done
done
echo "$n outputs in $out"
