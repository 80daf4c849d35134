# benches/harness/bench_pipeline.py — pipeline without network: N move mails across G
# games through `wildt serve --once` (Maildir in, file outbox) and through the
# baseline script on the same workload. Prints/saves msg/s, CPU per message and
# peak RSS. Does IO: a work folder, subprocesses.
import argparse
import os
import shutil

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
cfg = os.path.join(w, "wildt.toml")
b.write_config(
    cfg,
    db=os.path.join(w, "wildt.db"),
    referee=REF,
    inbox={"kind": "maildir", "path": os.path.join(w, "mail")},
    outbox={"kind": "file", "path": os.path.join(w, "outbox")},
)
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
b.save(a.out, res)
