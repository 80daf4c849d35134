# benches/harness/bench_pipeline.py — pipeline without network: N move mails across G
# games through `wildt serve --once` (Maildir in, file outbox) and through the
# baseline script on the same workload. Prints/saves msg/s, CPU per message and
# peak RSS. Then the floor (`io_floor.py`): the same messages through the
# file and commit operations alone, in one process and in one per core.
# Does IO: a work folder, subprocesses.
import argparse
import json
import os
import shutil
import subprocess
import sys

import benchlib as b

ap = argparse.ArgumentParser()
ap.add_argument("--games", type=int, default=1000)
ap.add_argument("--plies", type=int, default=10)
ap.add_argument("--work", default="/tmp/wildt-bench/pipeline")
ap.add_argument("--out", required=True)
a = ap.parse_args()

shutil.rmtree(a.work, ignore_errors=True)
os.makedirs(a.work)
REF = "chess@club.example"
plies = [b.random_plies(i, a.plies) for i in range(a.games)]
N = a.games * a.plies
white = lambda i: f"w{i}@players.example"  # noqa: E731
black = lambda i: f"b{i}@players.example"  # noqa: E731
res = {"messages": N, "games": a.games}

# wildt
w = os.path.join(a.work, "wildt")
os.makedirs(w)
cfg = b.maildir_config(w, REF)
games = b.wildt_new_games(cfg, a.games, white, black)
b.write_maildir(os.path.join(w, "mail"), b.round_robin_mails(games, plies, "w"))
wall, cpu, rss, out = b.timed([b.WILDT, "serve", "--once", "--config", cfg])
moves = b.count(os.path.join(w, "wildt.db"), "SELECT COUNT(*) FROM moves")
assert moves == N, f"wildt recorded {moves} of {N} moves: {out}"
res["wildt"] = {"wall_s": wall, "msg_per_s": N / wall, "cpu_ms_per_msg": 1000 * cpu / N, "peak_rss_kib": rss}

# baseline
bd = os.path.join(a.work, "baseline")
os.makedirs(bd)
bdb = os.path.join(bd, "base.db")
bgames = b.baseline_new_games(bdb, REF, a.games, white, black)
b.write_maildir(os.path.join(bd, "mail"), b.round_robin_mails(bgames, plies, "b"))
wall, cpu, rss, out = b.timed(
    ["python3", b.BASELINE, "--db", bdb, "--referee", REF, "--maildir", os.path.join(bd, "mail"), "--outdir", os.path.join(bd, "outbox")]
)
moves = b.count(bdb, "SELECT COUNT(*) FROM moves")
assert moves == N, f"baseline recorded {moves} of {N} moves"
res["baseline"] = {"wall_s": wall, "msg_per_s": N / wall, "cpu_ms_per_msg": 1000 * cpu / N, "peak_rss_kib": rss}

# the floor: the same number of messages (the baseline's mails), replies of
# the mean size of wildt's
sent = [e.path for e in os.scandir(os.path.join(w, "outbox")) if e.name.endswith(".eml")]
reply_bytes = sum(os.path.getsize(x) for x in sent) // len(sent)
res["floor"] = []
for procs in sorted({1, os.cpu_count() or 1}):
    fd = os.path.join(a.work, f"floor-{procs}")
    os.makedirs(fd)
    b.write_maildir(os.path.join(fd, "mail"), b.round_robin_mails(bgames, plies, "f"))
    out = subprocess.run(
        [sys.executable, "io_floor.py", "--maildir", os.path.join(fd, "mail"), "--outbox", os.path.join(fd, "outbox"),
         "--db", os.path.join(fd, "floor.db"), "--reply-bytes", str(reply_bytes), "--procs", str(procs)],
        check=True, capture_output=True, text=True,
    ).stdout
    floor = json.loads(out)
    assert floor["messages"] == N, floor
    res["floor"].append(floor)
b.save(a.out, res)
