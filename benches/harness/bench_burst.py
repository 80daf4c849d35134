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
ap.add_argument("--send-rate", type=int, default=None, help="[outbox] send_rate (mails per second); unset: none")
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
    outbox={"kind": "smtp", "host": HOST, "port": SMTP_PORT, "tls": "none", "connections": 8,  # as bench_servers.py
            **({"send_rate": a.send_rate} if a.send_rate else {})},
)
white = lambda i: f"p{1 + i % 15:02d}+w{i}@example.org"  # noqa: E731
black = lambda i: f"p{16 + i % 15:02d}+b{i}@example.org"  # noqa: E731
games = b.wildt_new_games(cfg, a.games, white, black)
probe = b.wildt_new_games(cfg, 1, lambda i: WHITE, lambda i: BLACK)[0]
plies = [b.random_plies(20_000 + i, a.plies) for i in range(a.games)]
burst = b.round_robin_mails(games, plies, "burst")

# Where a probe's time goes: a watcher polls the database (WAL: reading never
# blocks wildt) every 5 ms for the moment each probe move is recorded and the
# moment its confirmation is handed to the MTA (sent_at set).
stamps = {"decided": {}, "sent": {}, "burst": {}}
watching = threading.Event()


def watch_db():
    import sqlite3
    conn = sqlite3.connect(db)
    gid = probe["id"]
    polls = 0
    while not watching.is_set():
        now = time.perf_counter()
        n = conn.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?", (gid,)).fetchone()[0]
        for k in range(n):
            stamps["decided"].setdefault(k, now)
        for seat, user in ((0, WHITE), (1, BLACK)):
            sent = conn.execute(
                "SELECT COUNT(*) FROM outbox WHERE game_id = ? AND recipient = ? AND sent_at IS NOT NULL",
                (gid, user)).fetchone()[0]
            # each probe sends one mail to each player: the kth to a player
            # is the answer to probe k
            for k in range(sent):
                stamps["sent"].setdefault((seat, k), now)
        # When the burst itself (not the probes) was all recorded, and all
        # its replies handed to Postfix: every 20th poll.
        polls += 1
        if "answered" not in stamps["burst"] and polls % 20 == 0:
            done = conn.execute(
                "SELECT (SELECT COUNT(*) FROM moves WHERE game_id <> ?1),"
                " (SELECT COUNT(*) FROM outbox WHERE game_id <> ?1 AND sent_at IS NOT NULL)",
                (gid,)).fetchone()
            if done[0] == N:
                stamps["burst"].setdefault("decided", now)
            if done[0] == N and done[1] == 2 * N:
                stamps["burst"]["answered"] = now
        time.sleep(0.005)
    conn.close()


proc = subprocess.Popen([b.WILDT, "serve", "--config", cfg], stderr=open(os.path.join(a.work, "log"), "w"))
watcher = threading.Thread(target=watch_db)
try:
    time.sleep(2)  # READY; IDLE is waiting
    # The burst arrives as fast as Dovecot takes it, over two sessions.
    t_burst = time.perf_counter()
    halves = [burst[0::2], burst[1::2]]

    append_ends = []

    def append(mails):
        c = login(REF)
        for raw in mails:
            c.append("INBOX", None, None, raw.encode())
        append_ends.append(time.perf_counter())
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
    watcher.start()
    lat = []
    sent_at = []
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
        sent_at.append(t0)
        burst_left.append(N - b.count(db, "SELECT COUNT(*) FROM moves WHERE game_id <> %d" % probe["id"]))
    smtp.quit()
    for t in appenders:
        t.join()
    appended = max(append_ends) - t_burst
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
    watching.set()
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)

watcher.join()
# When Postfix had delivered each probe into the referee's INBOX: its log
# line for the game address gives the delay since Postfix received the
# probe (to 10 ms), which is the submission time plus a few ms.
inbound = []
rig_log = os.path.join(os.environ.get("WILDT_RIG_ROOT", ""), "log", "postfix.log")
if os.path.exists(rig_log):
    per_addr = {}
    with open(rig_log) as f:
        for line in f:
            if "status=sent" in line and "to=<" in line and " delay=" in line:
                to = line.split("to=<", 1)[1].split(">", 1)[0]
                per_addr.setdefault(to, []).append(float(line.split(" delay=", 1)[1].split(",", 1)[0]))
    seen = {}
    for p_ in range(len(sent_at)):
        addr = probe["white"][1] if p_ % 2 == 0 else probe["black"][1]
        k = seen.get(addr, 0)
        seen[addr] = k + 1
        delays = per_addr.get(addr, [])
        if k < len(delays):
            inbound.append(delays[k])
# submission -> recorded by wildt, and -> its confirmation handed to the MTA
to_decided = [stamps["decided"][p] - t0 for p, t0 in enumerate(sent_at) if p in stamps["decided"]]
to_mta = [stamps["sent"][(p % 2, p)] - t0 for p, t0 in enumerate(sent_at) if (p % 2, p) in stamps["sent"]]
res = {
    "burst": N,
    "games": a.games,
    "probes": len(lat),
    "send_rate": a.send_rate,
    "p50_ms": 1000 * pct(lat, 50),
    "p99_ms": 1000 * pct(lat, 99),
    "max_ms": 1000 * max(lat),
    # how much of the burst was still to be recorded when each probe was answered
    "burst_left_at_probes": burst_left,
    # the same probes, to the move recorded and to the confirmation handed to
    # Postfix (the rest is Postfix delivering to Dovecot and the IMAP poll)
    "decided_p50_ms": 1000 * pct(to_decided, 50),
    "decided_p99_ms": 1000 * pct(to_decided, 99),
    "handed_p50_ms": 1000 * pct(to_mta, 50),
    "handed_p99_ms": 1000 * pct(to_mta, 99),
    "per_probe_ms": [[round(1000 * x) for x in t] for t in zip(to_decided, to_mta, lat)],
    # Postfix's delay delivering each probe to the referee's INBOX, and what
    # is left to wildt: from the probe in its INBOX to the confirmation
    # handed to Postfix (includes IDLE's wake-up)
    "inbound_p99_ms": 1000 * pct(inbound, 99) if inbound else None,
    "wildt_p50_ms": 1000 * pct([m - i for m, i in zip(to_mta, inbound)], 50) if inbound else None,
    "wildt_p99_ms": 1000 * pct([m - i for m, i in zip(to_mta, inbound)], 99) if inbound else None,
    "inbound_ms": [round(1000 * x) for x in inbound],
    # from the first APPEND: the APPENDs done; the burst's moves all
    # recorded and its replies all handed to Postfix (polled every ~0.1 s);
    # and everything, the probes' too, answered (after the last probe)
    "append_s": appended,
    "burst_decided_s": stamps["burst"]["decided"] - t_burst if "decided" in stamps["burst"] else None,
    "burst_sent_s": stamps["burst"]["answered"] - t_burst if "answered" in stamps["burst"] else None,
    "burst_answered_s": burst_s,
}
b.save(a.out, res)
