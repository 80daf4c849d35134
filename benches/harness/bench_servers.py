# benches/harness/bench_servers.py — real servers: a burst of M move mails across G games
# APPENDed to the referee's INBOX in Dovecot, then `wildt serve --once` (IMAP in,
# SMTP out to Postfix) timed from start to exit with every reply sent; the same
# for the baseline; and the ceiling: Postfix's accept rate for 2*M mails with
# smtp-source (4 parallel sessions), with 1,500-byte mails and with mails of the
# mean size of wildt's replies. wildt's run and the two ceilings are
# measured `--repeats` times in turn (wildt, 1,500 B, reply size, wildt,
# ...), each percentage from a run and the ceilings measured right after
# it; the table shows the median pair and the range. Each measurement
# starts with Postfix's queue empty (waited for, not a fixed pause) and the
# mailboxes it delivers into emptied. Needs the mail rig (env from --rig).
# Does IO: IMAP, SMTP, subprocesses, a work folder.
import argparse
import imaplib
import os
import shutil
import statistics
import subprocess
import time

import benchlib as b

ap = argparse.ArgumentParser()
ap.add_argument("--games", type=int, default=500)
ap.add_argument("--plies", type=int, default=2)
ap.add_argument("--repeats", type=int, default=3,
                help="wildt runs, each paired with the ceilings measured after it (one run and the ceilings"
                     " move by 10 %% between runs on a shared VM)")
ap.add_argument("--hold", action="store_true",
                help="Postfix holds what it accepts during each measurement (wildt's and the ceilings'), and"
                     " delivers it into Dovecot only between them; no baseline")
ap.add_argument("--work", default="/tmp/wildt-bench/servers")
ap.add_argument("--out", required=True)
a = ap.parse_args()
HOST = os.environ["WILDT_RIG_HOST"]
IMAP_PORT = int(os.environ["WILDT_RIG_IMAP_PORT"])
SMTP_PORT = int(os.environ["WILDT_RIG_SMTP_PORT"])
REF, REFPW = "p40@example.org", "p40pw"
N = a.games * a.plies

shutil.rmtree(a.work, ignore_errors=True)
os.makedirs(a.work)
pwfile = os.path.join(a.work, "imap-password")
with open(pwfile, "w") as f:
    f.write(REFPW)
plies = [b.random_plies(10_000 + i, a.plies) for i in range(a.games)]
white = lambda i: f"p{1 + i % 19:02d}+w{i}@example.org"  # noqa: E731
black = lambda i: f"p{20 + i % 19:02d}+b{i}@example.org"  # noqa: E731


def imap(user=REF, password=REFPW):
    c = imaplib.IMAP4(HOST, IMAP_PORT)
    c.login(user, password)
    c.select("INBOX")
    return c


def clear_inbox(user=REF, password=REFPW):
    c = imap(user, password)
    c.store("1:*", "+FLAGS.SILENT", "(\\Deleted)") if int(c.select("INBOX")[1][0]) else None
    c.expunge()
    c.logout()


def clear_mailboxes(numbers):
    """Empties the INBOX of rig users pNN: each run delivers into mailboxes
    as empty as the last run's were (Dovecot's delivery into a mailbox
    costs more as it grows, and the two cores are shared)."""
    for i in numbers:
        clear_inbox(f"p{i:02d}@example.org", f"p{i:02d}pw")


QUEUE = os.path.join(os.environ.get("WILDT_RIG_ROOT", ""), "postfix", "queue")
ETC = os.path.join(os.environ.get("WILDT_RIG_ROOT", ""), "postfix", "etc")


def hold(on):
    """With `on`, Postfix puts every mail its smtpd accepts on hold (an
    end-of-data restriction), so none is delivered into Dovecot during a
    measurement. Without it, how much of a run's 2,000 deliveries Dovecot
    did during the run decided the run's speed: the slow runs of the
    stage (5.7 and 5.2 s against 3.8-4.2) delivered all or most of them
    during the run, 0.016 s each, the fast ones about 1,100, 0.2 s each
    (Postfix's log), with the two cores shared by all."""
    value = "check_client_access static:HOLD" if on else ""
    subprocess.run(["postconf", "-c", ETC, "-e", f"smtpd_end_of_data_restrictions = {value}"], check=True)
    subprocess.run(["postfix", "-c", ETC, "reload"], check=True, capture_output=True)
    time.sleep(2)  # smtpd processes started before the reload finish with their sessions


def settle_postfix(limit=180):
    """Waits until Postfix has delivered everything queued (its incoming,
    active and deferred queues empty), then a second more: each measurement
    starts with the servers idle. A fixed pause did not do it: the ceilings'
    4,000 mails into one mailbox took Dovecot 23-26 s to deliver, longer as
    the mailbox grew, and their delivery ran on into the next wildt run."""
    if not os.path.isdir(QUEUE):  # not the repository's rig: a pause
        time.sleep(5)
        return
    if a.hold:  # what was held is delivered now
        subprocess.run(["postsuper", "-c", ETC, "-H", "ALL"], check=True, capture_output=True)
        subprocess.run(["postqueue", "-c", ETC, "-f"], check=True)
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if not any(files for d in ("incoming", "active", "deferred", "hold")
                   for _, _, files in os.walk(os.path.join(QUEUE, d))):
            break
        time.sleep(0.2)
    time.sleep(1)


def append(mails):
    c = imap()
    for raw in mails:
        c.append("INBOX", None, None, raw.encode())
    c.logout()


# wildt's replies as Postfix received them: their mean size, from the rig's
# log (qmgr's `from=<referee>, size=`) between two offsets, for the second
# ceiling
RIG_LOG = os.path.join(os.environ.get("WILDT_RIG_ROOT", ""), "log", "postfix.log")


def log_offset():
    return os.path.getsize(RIG_LOG) if os.path.exists(RIG_LOG) else 0


def reply_sizes(start):
    if not os.path.exists(RIG_LOG):
        return []
    with open(RIG_LOG) as f:
        f.seek(start)
        return [int(line.split(" size=", 1)[1].split(",", 1)[0]) for line in f
                if "postfix/qmgr" in line and f"from=<{REF}>, size=" in line]


res = {"messages": N, "games": a.games, "mails_out": 2 * N}

# Warm-up, not measured: the first mails through a freshly started rig pay
# for Postfix spawning its smtpd, cleanup and lmtp processes and Dovecot its
# delivery processes; the program measured first paid it alone.
subprocess.run(
    ["/usr/sbin/smtp-source", "-s", "4", "-m", "200", "-l", "1500", "-f", REF, "-t", "p39@example.org",
     f"{HOST}:{SMTP_PORT}"],
    check=True,
)
time.sleep(5)

# baseline (not with --hold)
clear_inbox()
if not a.hold:
    bdb = os.path.join(a.work, "base.db")
    bgames = b.baseline_new_games(bdb, REF, a.games, white, black)
    append(b.round_robin_mails(bgames, plies, "sb"))
    wall, cpu, rss, out = b.timed(
        ["python3", b.BASELINE, "--db", bdb, "--referee", REF, "--imap", f"{HOST}:{IMAP_PORT}", "--user", REF,
         "--password", REFPW, "--smtp", f"{HOST}:{SMTP_PORT}"]
    )
    moves = b.count(bdb, "SELECT COUNT(*) FROM moves")
    assert moves == N, f"baseline recorded {moves} of {N}"
    res["baseline"] = {"wall_s": wall, "msg_per_s": N / wall, "cpu_ms_per_msg": 1000 * cpu / N, "peak_rss_kib": rss}
    time.sleep(5)
else:
    hold(True)


def run_wildt(r):
    """One run of wildt over the same moves in new games of a new database."""
    clear_inbox()
    clear_mailboxes(range(1, 39))  # the players' (white p01-p19, black p20-p38)
    cfg = os.path.join(a.work, f"wildt-{r}.toml")
    db = os.path.join(a.work, f"wildt-{r}.db")
    b.write_config(
        cfg,
        db=db,
        referee=REF,
        inbox={"kind": "imap", "host": HOST, "port": IMAP_PORT, "tls": "none", "username": REF,
               "password_file": pwfile, "idle": True},
        # eight connections to the local Postfix (config/example.toml: a local
        # Postfix takes 8 or more; the default 4 is for providers)
        outbox={"kind": "smtp", "host": HOST, "port": SMTP_PORT, "tls": "none", "connections": 8},
    )
    games = b.wildt_new_games(cfg, a.games, white, black)
    append(b.round_robin_mails(games, plies, f"sw{r}"))
    log_start = log_offset()
    wall, cpu, rss, out = b.timed([b.WILDT, "serve", "--once", "--config", cfg])
    sent = b.count(db, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NOT NULL")
    moves = b.count(db, "SELECT COUNT(*) FROM moves")
    assert moves == N and sent == 2 * N, f"wildt: {moves} moves, {sent} sent: {out}"
    settle_postfix()  # the replies delivered before the next measurement
    sizes = reply_sizes(log_start)
    return {"wall_s": wall, "msg_per_s": N / wall, "cpu_ms_per_msg": 1000 * cpu / N, "peak_rss_kib": rss,
            "reply_size": int(statistics.mean(sizes)) if sizes else 0}


# ceiling: Postfix accepting 2*N mails from smtp-source (4 sessions), of
# 1,500 bytes (the figure this bench always used) and of the size of
# wildt's replies (the same work per mail as wildt's)
def ceiling(size):
    clear_mailboxes([39])
    t0 = time.perf_counter()
    subprocess.run(
        ["/usr/sbin/smtp-source", "-s", "4", "-m", str(2 * N), "-l", str(size), "-f", REF, "-t", "p39@example.org",
         f"{HOST}:{SMTP_PORT}"],
        check=True,
    )
    ceil = time.perf_counter() - t0
    settle_postfix()
    return {"size": size, "wall_s": ceil, "mails_per_s": 2 * N / ceil, "msg_per_s": N / ceil}


runs = []
for r in range(a.repeats):
    w = run_wildt(r)
    pair = {"wildt": w, "ceiling": ceiling(1500)}
    pair["pct"] = 100 * w["msg_per_s"] / pair["ceiling"]["msg_per_s"]
    if w["reply_size"]:
        pair["ceiling_reply_size"] = ceiling(w["reply_size"])
        pair["pct_reply_size"] = 100 * w["msg_per_s"] / pair["ceiling_reply_size"]["msg_per_s"]
    runs.append(pair)
res["runs"] = runs
# The pair with the median percentage of the 1,500 B ceiling stands for
# the stage (its wildt run, its ceilings); the others are kept beside it.
median = sorted(runs, key=lambda p: p["pct"])[len(runs) // 2]
res["wildt"] = median["wildt"]
res["ceiling"] = median["ceiling"]
res["wildt_pct_of_ceiling"] = median["pct"]
res["wildt_pct_of_ceiling_range"] = [min(p["pct"] for p in runs), max(p["pct"] for p in runs)]
if "baseline" in res:
    res["baseline_pct_of_ceiling"] = 100 * res["baseline"]["msg_per_s"] / res["ceiling"]["msg_per_s"]
if all("pct_reply_size" in p for p in runs):
    res["ceiling_reply_size"] = median["ceiling_reply_size"]
    res["wildt_pct_of_ceiling_reply_size"] = median["pct_reply_size"]
    res["wildt_pct_of_ceiling_reply_size_range"] = [min(p["pct_reply_size"] for p in runs),
                                                    max(p["pct_reply_size"] for p in runs)]
if a.hold:
    hold(False)
res["hold"] = a.hold
clear_inbox()
b.save(a.out, res)
