#!/bin/bash
# benches/huge_mail.sh — what one huge mail costs the daemon: peak memory and
# time of `wildt serve --local --once` handling a single SIZE_MIB mail (a move
# followed by filler) addressed to a real game, on the embedded default.
#   benches/huge_mail.sh [SIZE_MIB] [WILDT_BINARY]   (default 200, target/release/wildt)
# Prints the answer wildt gave and "maxrss … KiB, … s" from GNU time. Does IO:
# builds release (unless a binary is given), files under a temporary folder.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
size_mib=${1:-200}
wildt=${2:-}
if [ -z "$wildt" ]; then
  (cd "$ROOT" && cargo build --release --quiet --bin wildt)
  wildt=$ROOT/target/release/wildt
fi
[ -x /usr/bin/time ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
address=$("$wildt" game new --local --no-mail --white anna@example.org --black ben@example.net --json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["white"]["address"])')
mkdir -p var/mail/new
python3 - "$address" "$size_mib" <<'EOF'
import sys
address, mib = sys.argv[1], int(sys.argv[2])
with open("var/mail/new/huge.eml", "wb") as f:
    f.write(f"From: anna@example.org\r\nTo: {address}\r\nSubject: my move\r\n"
            f"Message-ID: <huge@example.org>\r\n\r\n1. 5254\r\n\r\n".encode())
    line = b"x" * 76 + b"\r\n"
    for _ in range(mib * 1024 * 1024 // len(line)):
        f.write(line)
EOF
echo "huge_mail: $(stat -c %s var/mail/new/huge.eml) bytes"
/usr/bin/time -f "huge_mail: maxrss %M KiB, %e s" "$wildt" serve --local --once 2>&1 >/dev/null |
  grep '^huge_mail:'
python3 - var/outbox/*.eml <<'EOF'
import email, email.policy, sys
for path in sys.argv[1:]:
    mail = email.message_from_binary_file(open(path, "rb"), policy=email.policy.default)
    print("huge_mail: answer:", mail.get_content().splitlines()[0])
EOF
