# benches/harness/bench_daemon.py — latency and footprint of `wildt serve` as a daemon
# (IMAP IDLE on the rig, SMTP out): time from spawn to READY=1 on a stand-in
# NOTIFY_SOCKET; idle RSS and CPU over an idle window; then K sequential moves
# (knight shuffle in one game), each from SMTP submission by the player to the
# confirmation in the player's IMAP mailbox (p50, p99); RSS after the load.
# Optionally the baseline polling its inbox (--baseline-poll) for the latency.
# Does IO: a daemon process, a Unix socket, IMAP, SMTP.
import argparse
import imaplib
import os
import shutil
import signal
import smtplib
import socket
import subprocess
import time

import benchlib as b

ap = argparse.ArgumentParser()
ap.add_argument("--moves", type=int, default=200)
ap.add_argument("--idle-secs", type=float, default=60)
ap.add_argument("--baseline-poll", type=float, default=0, help="also run the baseline polling every N s")
ap.add_argument("--baseline-only", action="store_true", help="skip wildt (latency of the baseline alone)")
ap.add_argument("--work", default="/tmp/wildt-bench/daemon")
ap.add_argument("--out", required=True)
a = ap.parse_args()
HOST = os.environ["WILDT_RIG_HOST"]
IMAP_PORT = int(os.environ["WILDT_RIG_IMAP_PORT"])
SMTP_PORT = int(os.environ["WILDT_RIG_SMTP_PORT"])
REF, REFPW = "p40@example.org", "p40pw"
WHITE, BLACK = "p37@example.org", "p38@example.org"
TICK = os.sysconf("SC_CLK_TCK")

shutil.rmtree(a.work, ignore_errors=True)
os.makedirs(a.work)
pwfile = os.path.join(a.work, "imap-password")
with open(pwfile, "w") as f:
    f.write(REFPW)


def clear(user):
    c = imaplib.IMAP4(HOST, IMAP_PORT)
    c.login(user, user.split("@")[0] + "pw")
    if int(c.select("INBOX")[1][0]):
        c.store("1:*", "+FLAGS.SILENT", "(\\Deleted)")
        c.expunge()
    c.logout()


def status(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM"):
                out[k] = int(v.split()[0])
    return out


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)


class Watcher:
    """The players' mailboxes: waits for a mail whose Subject/body names the ply."""

    def __init__(self):
        self.c = {}
        for u in (WHITE, BLACK):
            c = imaplib.IMAP4(HOST, IMAP_PORT)
            c.login(u, u.split("@")[0] + "pw")
            c.select("INBOX")
            self.c[u] = c

    def wait(self, user, seen_before, timeout=200):
        c = self.c[user]
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            c.noop()
            n = int(c.select("INBOX")[1][0])
            if n > seen_before:
                return n
            time.sleep(0.002)
        raise SystemExit(f"no confirmation for {user} within {timeout}s")


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def latency_run(addr_white, addr_black, moves):
    """Sends moves alternately; each waits for a new mail in the mover's box.
    The mover gets exactly one mail per move (the confirmation); the opponent's
    relay goes to the other box, which is counted before the opponent moves."""
    w = Watcher()
    counts = {WHITE: 0, BLACK: 0}
    lat = []
    smtp = smtplib.SMTP(HOST, SMTP_PORT)
    for p in range(moves):
        mv = b.SHUFFLE[p % 4]
        user, addr = (WHITE, addr_white) if p % 2 == 0 else (BLACK, addr_black)
        # the opponent's relay of the previous move must be in before we count
        counts[user] = w.wait(user, counts[user]) if p > 0 else counts[user]
        raw = b.move_mail(user, addr, f"lat-{time.time_ns()}@bench", b.move_body(p, mv))
        t0 = time.perf_counter()
        smtp.sendmail(user, [addr], raw)
        counts[user] = w.wait(user, counts[user])
        lat.append(time.perf_counter() - t0)
    smtp.quit()
    return lat


res = {}
for u in (REF, WHITE, BLACK):
    clear(u)
cfg = os.path.join(a.work, "wildt.toml")
db = os.path.join(a.work, "wildt.db")
b.write_config(
    cfg,
    db=db,
    referee=REF,
    inbox={"kind": "imap", "host": HOST, "port": IMAP_PORT, "tls": "none", "username": REF, "password_file": pwfile,
           "idle": True, "poll_interval_secs": 300},
    outbox={"kind": "smtp", "host": HOST, "port": SMTP_PORT, "tls": "none"},
)
if not a.baseline_only:
    g = b.wildt_new_games(cfg, 1, lambda i: WHITE, lambda i: BLACK)[0]

    sock_path = os.path.join(a.work, "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(sock_path)
    sock.settimeout(10)
    env = dict(os.environ, NOTIFY_SOCKET=sock_path)
    t0 = time.perf_counter()
    proc = subprocess.Popen([b.WILDT, "serve", "--config", cfg], env=env, stderr=open(os.path.join(a.work, "log"), "w"))
    while True:
        msg = sock.recv(4096).decode()
        if "READY=1" in msg.split("\n"):
            break
    res["ready_ms"] = 1000 * (time.perf_counter() - t0)
    time.sleep(2)
    c0, t_idle = cpu_ticks(proc.pid), time.perf_counter()
    time.sleep(a.idle_secs)
    c1, t_idle = cpu_ticks(proc.pid), time.perf_counter() - t_idle
    res["idle_secs"] = t_idle
    res["idle_cpu_pct"] = 100 * (c1 - c0) / TICK / t_idle
    res["idle_rss_kib"] = status(proc.pid)["VmRSS"]
    b.save(a.out + ".footprint", res)  # kept even if the latency run fails
    try:
        lat = latency_run(g["white"][1], g["black"][1], a.moves)
    except BaseException:
        proc.kill()  # never leave a daemon behind: it would take the next run's mail
        raise
    st = status(proc.pid)
    res["load_rss_kib"], res["load_hwm_kib"] = st["VmRSS"], st["VmHWM"]
    res["wildt"] = {"moves": len(lat), "p50_ms": 1000 * pct(lat, 50), "p99_ms": 1000 * pct(lat, 99), "max_ms": 1000 * max(lat)}
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)
    sock.close()
    b.save(a.out + ".wildt", res)  # kept even if the baseline run fails

if a.baseline_poll:
    for u in (REF, WHITE, BLACK):
        clear(u)
    bdb = os.path.join(a.work, "base.db")
    bg = b.baseline_new_games(bdb, REF, 1, lambda i: WHITE, lambda i: BLACK)[0]
    bp = subprocess.Popen(
        ["python3", b.BASELINE, "--db", bdb, "--referee", REF, "--imap", f"{HOST}:{IMAP_PORT}", "--user", REF,
         "--password", REFPW, "--smtp", f"{HOST}:{SMTP_PORT}", "--poll", str(a.baseline_poll)]
    )
    time.sleep(1)
    try:
        lat = latency_run(bg["white"][1], bg["black"][1], a.moves)
    finally:
        bp.terminate()
    res["baseline"] = {"moves": len(lat), "p50_ms": 1000 * pct(lat, 50), "p99_ms": 1000 * pct(lat, 99),
                       "max_ms": 1000 * max(lat), "poll_s": a.baseline_poll}
    bp.wait()
b.save(a.out, res)
