# benches/harness/bench_servers.py — real servers: a burst of M move mails across G games
# APPENDed to the referee's INBOX in Dovecot, then `wildt serve --once` (IMAP in,
# SMTP out to Postfix) timed from start to exit with every reply sent; the same
# for the baseline; and the ceiling: Postfix's accept rate for 2*M mails with
# smtp-source (4 parallel sessions). Needs the mail rig (env from --rig).
# Does IO: IMAP, SMTP, subprocesses, a work folder.
import argparse
import imaplib
import os
import shutil
import subprocess
import time

import benchlib as b

ap = argparse.ArgumentParser()
ap.add_argument("--games", type=int, default=500)
ap.add_argument("--plies", type=int, default=2)
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


def imap():
    c = imaplib.IMAP4(HOST, IMAP_PORT)
    c.login(REF, REFPW)
    c.select("INBOX")
    return c


def clear_inbox():
    c = imap()
    c.store("1:*", "+FLAGS.SILENT", "(\\Deleted)") if int(c.select("INBOX")[1][0]) else None
    c.expunge()
    c.logout()


def append(mails):
    c = imap()
    for raw in mails:
        c.append("INBOX", None, None, raw.encode())
    c.logout()


res = {"messages": N, "games": a.games, "mails_out": 2 * N}

# wildt
clear_inbox()
cfg = os.path.join(a.work, "wildt.toml")
db = os.path.join(a.work, "wildt.db")
b.write_config(
    cfg,
    db=db,
    referee=REF,
    inbox={"kind": "imap", "host": HOST, "port": IMAP_PORT, "tls": "none", "username": REF, "password_file": pwfile, "idle": True},
    outbox={"kind": "smtp", "host": HOST, "port": SMTP_PORT, "tls": "none"},
)
games = b.wildt_new_games(cfg, a.games, white, black)
append(b.round_robin_mails(games, plies, "sw"))
wall, cpu, rss, out = b.timed([b.WILDT, "serve", "--once", "--config", cfg])
sent = b.count(db, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NOT NULL")
moves = b.count(db, "SELECT COUNT(*) FROM moves")
assert moves == N and sent == 2 * N, f"wildt: {moves} moves, {sent} sent: {out}"
res["wildt"] = {"wall_s": wall, "msg_per_s": N / wall, "cpu_ms_per_msg": 1000 * cpu / N, "peak_rss_kib": rss}
time.sleep(5)  # let Postfix deliver the replies before the next round

# baseline
clear_inbox()
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

# ceiling: Postfix accepting 2*N mails of about the size of a wildt reply
size = 1500
t0 = time.perf_counter()
subprocess.run(
    ["/usr/sbin/smtp-source", "-s", "4", "-m", str(2 * N), "-l", str(size), "-f", REF, "-t", "p39@example.org",
     f"{HOST}:{SMTP_PORT}"],
    check=True,
)
ceil = time.perf_counter() - t0
res["ceiling"] = {"wall_s": ceil, "mails_per_s": 2 * N / ceil, "msg_per_s": N / ceil}
res["wildt_pct_of_ceiling"] = 100 * res["wildt"]["msg_per_s"] / res["ceiling"]["msg_per_s"]
res["baseline_pct_of_ceiling"] = 100 * res["baseline"]["msg_per_s"] / res["ceiling"]["msg_per_s"]
clear_inbox()
b.save(a.out, res)
