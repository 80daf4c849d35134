# benches/harness/smtp_wait.py — from `strace -f -tt` files of wildt (one per process, in
# DIR/trace.*), the time from writing a mail's closing "\r\n.\r\n" to reading the relay's
# "250" on the same socket, median and max, and how many TCP_NODELAY setsockopt calls
# the traces hold. Shows Nagle's stall (a ~40 ms floor) or its absence. To trace a run:
#   WILDT_REAL=target/release/wildt WILDT_BIN=<a script that runs
#   strace -f -tt -e trace=sendto,write,recvfrom,read,setsockopt -s 64 -o DIR/trace.$$ "$WILDT_REAL" "$@">
#   python3 bench_servers.py --games 10 --plies 2 --out x.json; python3 smtp_wait.py DIR
# Does IO: reads files.
import glob, re, statistics, sys
from datetime import datetime
d = []
for f in glob.glob(sys.argv[1] + "/trace.*"):
    pend = {}
    for line in open(f, errors="replace"):
        m = re.match(r"(\d+) (\d\d:\d\d:\d\d\.\d+) (\w+)\((\d+), \"(.*?)\"", line)
        if not m:
            continue
        pid, t, call, fd, data = m.groups()
        t = datetime.strptime(t, "%H:%M:%S.%f")
        key = (pid, fd)
        if call in ("sendto", "write") and data.endswith("\\r\\n.\\r\\n"):
            pend[key] = t
        elif call in ("recvfrom", "read") and data.startswith("250") and key in pend:
            d.append((t - pend.pop(key)).total_seconds() * 1000)
nd = sum(1 for f in glob.glob(sys.argv[1] + "/trace.*") for l in open(f, errors="replace") if "TCP_NODELAY" in l)
print(f"{len(d)} mails: median {statistics.median(d):.2f} ms, max {max(d):.2f} ms; TCP_NODELAY setsockopt calls: {nd}" if d else "no mails found")
