# benches/harness/bench_burst.py — latency while a burst is being handled: `wildt serve`
# (IMAP IDLE on the rig, SMTP out to Postfix) is running when a burst of M move mails
# across G games is APPENDed to the referee's INBOX (as after a mail server's outage);
# right after, a probe player sends K moves by SMTP one after another, each timed from
# its submission to the confirmation in the prober's IMAP INBOX (p50, p99, max). Also
# reports how long the burst took to be fully answered (every reply sent). The burst's
# players are p01..p30 (sub-addressed), the probe's p37/p38, so no mailbox is shared.
# Does IO: a daemon process, IMAP, SMTP, a work folder.
import argparse
import imaplib
import os
import shutil
import signal
import smtplib
import subprocess
import threading
import time

import benchlib as b

ap = argparse.ArgumentParser()
ap.add_argument("--games", type=int, default=500)
ap.add_argument("--plies", type=int, default=2)
ap.add_argument("--probes", type=int, default=30)
ap.add_argument("--work", default="/tmp/wildt-bench/burst")
ap.add_argument("--out", required=True)
a = ap.parse_args()
HOST = os.environ["WILDT_RIG_HOST"]
IMAP_PORT = int(os.environ["WILDT_RIG_IMAP_PORT"])
SMTP_PORT = int(os.environ["WILDT_RIG_SMTP_PORT"])
REF, REFPW = "p40@example.org", "p40pw"
WHITE, BLACK = "p37@example.org", "p38@example.org"
N = a.games * a.plies

shutil.rmtree(a.work, ignore_errors=True)
os.makedirs(a.work)
pwfile = os.path.join(a.work, "imap-password")
with open(pwfile, "w") as f:
    f.write(REFPW)


def login(user):
    c = imaplib.IMAP4(HOST, IMAP_PORT)
    c.login(user, user.split("@")[0] + "pw")
    return c


def clear(user):
    c = login(user)
    if int(c.select("INBOX")[1][0]):
        c.store("1:*", "+FLAGS.SILENT", "(\\Deleted)")
        c.expunge()
    c.logout()


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def wait_more(c, seen, timeout=120):
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        c.noop()
        n = int(c.select("INBOX")[1][0])
        if n > seen:
            return n
        time.sleep(0.002)
    raise SystemExit(f"no confirmation within {timeout}s")


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
white = lambda i: f"p{1 + i % 15:02d}+w{i}@example.org"  # noqa: E731
black = lambda i: f"p{16 + i % 15:02d}+b{i}@example.org"  # noqa: E731
games = b.wildt_new_games(cfg, a.games, white, black)
probe = b.wildt_new_games(cfg, 1, lambda i: WHITE, lambda i: BLACK)[0]
plies = [b.random_plies(20_000 + i, a.plies) for i in range(a.games)]
burst = b.round_robin_mails(games, plies, "burst")

proc = subprocess.Popen([b.WILDT, "serve", "--config", cfg], stderr=open(os.path.join(a.work, "log"), "w"))
try:
    time.sleep(2)  # READY; IDLE is waiting
    # The burst arrives as fast as Dovecot takes it, over two sessions.
    t_burst = time.perf_counter()
    halves = [burst[0::2], burst[1::2]]

    def append(mails):
        c = login(REF)
        for raw in mails:
            c.append("INBOX", None, None, raw.encode())
        c.logout()

    appenders = [threading.Thread(target=append, args=(h,)) for h in halves]
    for t in appenders:
        t.start()
    time.sleep(0.5)  # the daemon has begun on the burst
    watch = {u: login(u) for u in (WHITE, BLACK)}
    for c in watch.values():
        c.select("INBOX")
    counts = {WHITE: 0, BLACK: 0}
    smtp = smtplib.SMTP(HOST, SMTP_PORT)
    lat = []
    burst_left = []
    for p in range(a.probes):
        mv = b.SHUFFLE[p % 4]
        user, addr = (WHITE, probe["white"][1]) if p % 2 == 0 else (BLACK, probe["black"][1])
        if p > 0:  # the opponent's relay of the previous probe move is in
            counts[user] = wait_more(watch[user], counts[user])
        raw = b.move_mail(user, addr, f"probe-{time.time_ns()}@bench", b.move_body(p, mv))
        t0 = time.perf_counter()
        smtp.sendmail(user, [addr], raw)
        counts[user] = wait_more(watch[user], counts[user])
        lat.append(time.perf_counter() - t0)
        burst_left.append(N - b.count(db, "SELECT COUNT(*) FROM moves WHERE game_id <> %d" % probe["id"]))
    smtp.quit()
    for t in appenders:
        t.join()
    appended = time.perf_counter() - t_burst
    end = time.perf_counter() + 300
    while time.perf_counter() < end:
        moves = b.count(db, "SELECT COUNT(*) FROM moves")
        unsent = b.count(db, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL")
        if moves == N + a.probes and unsent == 0:
            break
        time.sleep(0.05)
    burst_s = time.perf_counter() - t_burst
    assert moves == N + a.probes and unsent == 0, f"{moves} moves, {unsent} unsent after 300 s"
finally:
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)

res = {
    "burst": N,
    "games": a.games,
    "probes": len(lat),
    "p50_ms": 1000 * pct(lat, 50),
    "p99_ms": 1000 * pct(lat, 99),
    "max_ms": 1000 * max(lat),
    # how much of the burst was still to be recorded when each probe was answered
    "burst_left_at_probes": burst_left,
    "append_s": appended,
    "burst_answered_s": burst_s,
}
b.save(a.out, res)
