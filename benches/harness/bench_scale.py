# benches/harness/bench_scale.py — does a move cost more late in a game or in a big
# database? Per-move cost of `wildt serve --once` (Maildir in, file outbox) for
# G move mails (one per game) at ply 1 vs at ply P (games advanced by a knight
# shuffle), at ply 1 again in new games of the database aged by the advance
# (telling game length from database age; those rounds alternate with the
# rounds at ply P), and with H games in the database
# vs only the G games moved.
# Per-move cost = (run with G mails - run with an empty inbox) / G, median of R.
# With --daemon the same rounds are answered by one `wildt serve` running
# through them, as a club runs it: a process started for each round also
# pays for its first use of every page of memory and of the database it
# touches, and a long game's move touches more of both. There a round's
# wall time runs from the daemon's first read of a mail of the round (the
# mails' access times: the work folder needs atime updates, as ext4's
# default relatime gives) to the last reply written (the replies' file
# times), its CPU time is the
# daemon's (all threads, /proc/PID/task/*/schedstat), and each set has one
# unmeasured round first; no 100,000-game database.
# Does IO: work folders, subprocesses (wildt and the bench_mkgames example).
import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import time

import benchlib as b

ap = argparse.ArgumentParser()
ap.add_argument("--games", type=int, default=200)
ap.add_argument("--ply", type=int, default=300)
ap.add_argument("--big", type=int, default=100_000)
ap.add_argument("--rounds", type=int, default=3)
ap.add_argument("--spread", type=int, default=16,
                help="the spread set's games are every SPREAD-th of SPREAD*G new games (0: no spread set)")
ap.add_argument("--mkgames", default=os.path.join(b.ROOT, "target", "release", "examples", "bench_mkgames"))
ap.add_argument("--daemon", action="store_true", help="answer the measured rounds with one running `wildt serve`")
ap.add_argument("--work", default="/tmp/wildt-bench/scale")
ap.add_argument("--out", required=True)
a = ap.parse_args()
assert a.ply % 4 == 0, "the shuffle returns to the start every 4 plies"
REF = "chess@club.example"
# An earlier run's folders (a quarter of a million files) are set aside and
# deleted only after the measurements: deleting them first made ext4 slow
# at the next file creations, which the rounds at ply 1 then paid (1.9 and
# 2.4 ms per move in two runs, against 0.9 with the folders already gone).
OLD = f"{a.work}.old.{os.getpid()}"
if os.path.exists(a.work):
    os.rename(a.work, OLD)


def setup(name, total):
    d = os.path.join(a.work, name)
    os.makedirs(d)
    cfg = b.maildir_config(d, REF)
    return d, cfg, new_games(cfg, total)


def new_games(cfg, total, keep=None):
    """Creates `total` games in cfg's database; the last `keep` (G) of them."""
    keep = a.games if keep is None else keep
    out = subprocess.run([a.mkgames, cfg, str(total), str(keep)], check=True, capture_output=True)
    return [json.loads(line) for line in out.stdout.decode().splitlines()]


def serve(cfg):
    wall, cpu, _, out = b.timed([b.WILDT, "serve", "--once", "--config", cfg])
    return wall, cpu


class Daemon:
    """`wildt serve` on cfg (Maildir polled every 200 ms, file outbox), its
    log in the folder."""

    def __init__(self, d, cfg):
        self.log_path = os.path.join(d, f"serve-{time.time_ns()}.log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([b.WILDT, "serve", "--config", cfg], stdout=self.log, stderr=self.log)

    def cpu(self):
        """CPU seconds of the daemon's threads so far (those alive: a round
        ends before tokio lets an idle blocking thread go, after 10 s)."""
        total = 0
        task = f"/proc/{self.proc.pid}/task"
        for tid in os.listdir(task):
            try:
                with open(os.path.join(task, tid, "schedstat")) as f:
                    total += int(f.read().split()[0])
            except FileNotFoundError:
                pass
        return total / 1e9

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        assert self.proc.wait(timeout=60) == 0, f"wildt serve ended with {self.proc.returncode}; see {self.log_path}"
        self.log.close()


def per_move(d, cfg, games, first_ply, tag="s"):
    """Median over rounds of (wall, cpu) per move above an empty run, in ms;
    `tag` keeps the rounds' file and folder names apart from other calls'."""
    return per_moves(d, cfg, [(games, first_ply, tag)])[0]


def per_moves(d, cfg, sets):
    """per_move for several (games, first_ply, tag) sets of one database,
    their rounds taken in turn (a, b, a, b, ...): each set meets the file
    system and the database in the same state, so that what one costs more
    than another is not when it ran (measured one after the other, the
    second set's rounds ran during the first's write-back)."""
    if a.daemon:
        return per_moves_daemon(d, cfg, sets)
    empty = statistics.median(serve(cfg)[0] for _ in range(3))
    walls = [[] for _ in sets]
    cpus = [[] for _ in sets]
    for r in range(a.rounds):
        for i, (games, first_ply, tag) in enumerate(sets):
            wall, cpu = one_round(d, cfg, games, first_ply + r, tag, r)
            walls[i].append(1000 * (wall - empty) / len(games))
            cpus[i].append(1000 * cpu / len(games))
    return [
        {"ms_per_move": statistics.median(w), "cpu_ms_per_move": statistics.median(c), "empty_run_ms": 1000 * empty}
        for w, c in zip(walls, cpus)
    ]


def per_moves_daemon(d, cfg, sets):
    """per_moves answered by one running daemon: each set's first round
    unmeasured (the daemon's own first use of what the set touches), then
    a.rounds rounds taken in turn. The Maildir and the outbox folder are
    set aside once before it starts."""
    for folder in ("mail", "outbox"):
        path = os.path.join(d, folder)
        if os.path.exists(path):
            os.rename(path, os.path.join(d, f"{folder}-before-daemon-{time.time_ns()}"))
    daemon = Daemon(d, cfg)
    walls = [[] for _ in sets]
    cpus = [[] for _ in sets]
    try:
        for r in range(a.rounds + 1):
            for i, (games, first_ply, tag) in enumerate(sets):
                wall, cpu = daemon_round(d, daemon, games, first_ply + r, tag, r)
                if r > 0:
                    walls[i].append(1000 * wall / len(games))
                    cpus[i].append(1000 * cpu / len(games))
    finally:
        daemon.stop()
    return [
        {"ms_per_move": statistics.median(w), "cpu_ms_per_move": statistics.median(c), "empty_run_ms": 0}
        for w, c in zip(walls, cpus)
    ]


def daemon_round(d, daemon, games, p, tag, r):
    """One move (ply index p) in each of `games`, answered by the running
    daemon: (wall s, cpu s). The mails are written aside and renamed into
    `new/`, so the daemon never reads one half written."""
    mails = b.round_robin_mails(games, [[b.SHUFFLE[p % 4]] for _ in games], f"{tag}{r}", start_ply=p)
    db = os.path.join(d, "wildt.db")
    outbox = os.path.join(d, "outbox")
    os.makedirs(outbox, exist_ok=True)
    sent_before = set(os.listdir(outbox))
    moves_before = b.count(db, "SELECT COUNT(*) FROM moves")
    stage = os.path.join(d, "stage")
    shutil.rmtree(stage, ignore_errors=True)
    b.write_maildir(stage, mails, prefix=f"{tag}{p}-")
    new = os.path.join(d, "mail", "new")
    for sub in ("new", "cur", "tmp"):
        os.makedirs(os.path.join(d, "mail", sub), exist_ok=True)
    cpu0 = daemon.cpu()
    delivered = time.time()
    for name in sorted(os.listdir(os.path.join(stage, "new"))):
        os.rename(os.path.join(stage, "new", name), os.path.join(new, name))
    deadline = time.monotonic() + 120
    cur = os.path.join(d, "mail", "cur")
    while True:
        # Polled every 50 ms: the reads cost the machine little beside
        # the daemon's work, and the wall time below is not taken here.
        # Done when every move is recorded, every mail handled, and every
        # reply written and marked sent (so the round's CPU time has the
        # marking too).
        time.sleep(0.05)
        assert time.monotonic() < deadline, f"round {tag}{p} not answered; see {daemon.log_path}"
        if b.count(db, "SELECT COUNT(*) FROM moves") - moves_before < len(games):
            continue
        read = [os.stat(os.path.join(cur, n)).st_atime for n in os.listdir(cur) if n.startswith(f"{tag}{p}-")]
        written = [n for n in os.listdir(outbox) if n not in sent_before and not n.startswith(".")]
        if (len(read) == len(games) and len(written) == 2 * len(games)
                and b.count(db, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL") == 0):
            break
    cpu = daemon.cpu() - cpu0
    # The mails were written with old times: an access time before the
    # delivery (less a tick of the file system's clock) was never updated.
    assert min(read) >= delivered - 0.05, "no access times: mount the work folder with relatime or strictatime"
    last = max(os.stat(os.path.join(outbox, n)).st_mtime for n in written)
    return last - min(read), cpu


def one_round(d, cfg, games, p, tag, r):
    """One move (ply index p) in each of `games`, served by one run: (wall s, cpu s)."""
    mails = b.round_robin_mails(games, [[b.SHUFFLE[p % 4]] for _ in games], f"{tag}{r}", start_ply=p)
    # The Maildir and the file outbox's folder are set aside: after the
    # advance to ply P they hold G*P and 2*G*P files, and creating one
    # more in a folder of 120,000 costs the file system, not the game's
    # length. Renamed, not deleted: ext4 is slow to create files right
    # after mass deletes (deleting the advance's 60,000 mails here cost
    # the next round's moves at ply 300).
    for folder in ("mail", "outbox"):
        path = os.path.join(d, folder)
        if os.path.exists(path):
            os.rename(path, os.path.join(d, f"{folder}-before-{tag}{p}"))
    # unique names: a reused Maildir name is a duplicate source for wildt
    b.write_maildir(os.path.join(d, "mail"), mails, prefix=f"{tag}{p}-")
    before = b.count(os.path.join(d, "wildt.db"), "SELECT COUNT(*) FROM moves")
    wall, cpu = serve(cfg)
    after = b.count(os.path.join(d, "wildt.db"), "SELECT COUNT(*) FROM moves")
    assert after - before == len(games), f"{after - before} of {len(games)} moves recorded"
    return wall, cpu


res = {"games": a.games, "ply": a.ply}
if not a.daemon:
    res["big"] = a.big
# small database: G games, measured at ply 1, then advanced to ply P and measured again
d, cfg, games = setup("small", a.games)
res["ply_low"] = per_move(d, cfg, games, 0)
# advance to ply P (untimed); a daemon's rounds were one more
played = a.rounds + (1 if a.daemon else 0)
adv = [b.SHUFFLE[p % 4] for p in range(played, a.ply)]
mails = b.round_robin_mails(games, [adv for _ in games], "adv", start_ply=played)
shutil.rmtree(os.path.join(d, "mail"), ignore_errors=True)
b.write_maildir(os.path.join(d, "mail"), mails, prefix="adv-")
serve(cfg)
n = b.count(os.path.join(d, "wildt.db"), "SELECT COUNT(*) FROM moves")
assert n == a.games * a.ply, f"{n} moves recorded, expected {a.games * a.ply}"
# the same database, aged by the advance (G*P more moves, messages and sent
# mails), with G new games: ply 1 again, so that what the game's length
# costs is told apart from what the database's history costs; its rounds
# alternate with those at ply P
fresh = new_games(cfg, a.games)
# The spread set: G short games as spread through the database as the long
# games are. A long game's plies fill pages of their own; the G
# new games above were created one after the other, so a round's 200 moves
# land on a few shared pages of each table, which a club's day of moves
# (from games started at different times) does not. Here every SPREAD-th of SPREAD*G new games is
# measured; all of them are first advanced 4 plies (back to the starting
# position), so that the others' plies lie between the measured games' in
# the moves table. Measured at 16: a round of the spread games wrote 1,580
# WAL frames, the long games' 1,662, the new games' above 1,162.
sets = [(games, a.ply, "s"), (fresh, 0, "aged")]
if a.spread:
    every = new_games(cfg, a.spread * a.games, a.spread * a.games)
    mails = b.round_robin_mails(every, [b.SHUFFLE[:4] for _ in every], "spr", start_ply=0)
    for folder in ("mail", "outbox"):
        path = os.path.join(d, folder)
        if os.path.exists(path):
            os.rename(path, os.path.join(d, f"{folder}-before-spread"))
    b.write_maildir(os.path.join(d, "mail"), mails, prefix="spr-")
    serve(cfg)
    n = b.count(os.path.join(d, "wildt.db"), f"SELECT COUNT(*) FROM moves WHERE game_id >= {every[0]['id']}")
    assert n == 4 * len(every), f"{n} moves recorded in the spread games, expected {4 * len(every)}"
    sets.append((every[a.spread - 1::a.spread], 4, "spread"))
measured = per_moves(d, cfg, sets)
res["ply_high"], res["ply_low_aged"] = measured[:2]
res["ply_ratio"] = res["ply_high"]["ms_per_move"] / res["ply_low"]["ms_per_move"]
res["ply_ratio_aged"] = res["ply_high"]["ms_per_move"] / res["ply_low_aged"]["ms_per_move"]
if a.spread:
    res["spread"] = a.spread
    res["ply_low_spread"] = measured[2]
    res["ply_ratio_spread"] = res["ply_high"]["ms_per_move"] / res["ply_low_spread"]["ms_per_move"]

if a.daemon:
    res["mode"] = "daemon"
    b.save(a.out, res)
    shutil.rmtree(OLD, ignore_errors=True)
    raise SystemExit(0)
# big database: H games, the last G of them moved at ply 1
d, cfg, games = setup("big", a.big)
res["db_big"] = per_move(d, cfg, games, 0)
res["db_ratio"] = res["db_big"]["ms_per_move"] / res["ply_low"]["ms_per_move"]
b.save(a.out, res)
shutil.rmtree(OLD, ignore_errors=True)
