# benches/harness/pipeline_pairs.py — is build B faster than build A at the
# pipeline's work? The VM's speed moves by 10–30 % between runs of one
# build, so one run of each says nothing: this runs the two binaries in
# alternated pairs (A then B, then B then A, ...) on the same workload
# (G games x P plies of move mails, Maildir in, file outbox,
# `serve --once`), each run on a fresh copy of the same folder (files,
# their times and the database as made once), and prints each pair's wall
# time, both medians, the median of the paired ratios B/A and in how many
# pairs B was faster. Every run is checked: all moves recorded, no mail
# left waiting. Does IO: a work folder (put it on the file system to
# measure: `--work /dev/shm/...` for one where commits cost nothing),
# subprocesses (the two binaries and the bench_mkgames example).
import argparse
import json
import os
import shutil
import statistics
import subprocess

import benchlib as b

ap = argparse.ArgumentParser()
ap.add_argument("a", help="build A (the one before)")
ap.add_argument("b", help="build B (the one after)")
ap.add_argument("--pairs", type=int, default=16)
ap.add_argument("--games", type=int, default=1000)
ap.add_argument("--plies", type=int, default=10)
ap.add_argument("--mkgames", default=os.path.join(b.ROOT, "target", "release", "examples", "bench_mkgames"))
ap.add_argument("--work", default="/tmp/wildt-bench/pairs")
ap.add_argument("--out", required=True)
a = ap.parse_args()

REF = "chess@club.example"
run = os.path.join(a.work, "run")
pristine = os.path.join(a.work, "pristine")
shutil.rmtree(a.work, ignore_errors=True)
os.makedirs(run)
cfg = b.maildir_config(run, REF)
made = subprocess.run([a.mkgames, cfg, str(a.games), str(a.games)], check=True, capture_output=True, text=True)
games = [json.loads(line) for line in made.stdout.splitlines()]
assert len(games) == a.games, made.stdout[-500:]
plies = [b.random_plies(10_000 + i, a.plies) for i in range(a.games)]
b.write_maildir(os.path.join(run, "mail"), b.round_robin_mails(games, plies, "p"))
N = a.games * a.plies
# The copy keeps the files' times: a Maildir file's time is its arrival.
shutil.copytree(run, pristine, symlinks=True)


def one(binary):
    shutil.rmtree(run)
    shutil.copytree(pristine, run, symlinks=True)
    os.sync()
    wall, cpu, _, out = b.timed([binary, "serve", "--once", "--config", cfg])
    moves = b.count(os.path.join(run, "wildt.db"), "SELECT COUNT(*) FROM moves")
    assert moves == N, f"{binary} recorded {moves} of {N} moves: {out[-500:]}"
    left = os.listdir(os.path.join(run, "mail", "new"))
    assert not left, f"{binary} left {len(left)} mails waiting"
    return wall, cpu


pairs = []
for i in range(a.pairs):
    # Alternate which goes first, so neither always runs on a warmer cache.
    if i % 2 == 0:
        (wa, ca), (wb, cb) = one(a.a), one(a.b)
    else:
        (wb, cb), (wa, ca) = one(a.b), one(a.a)
    pairs.append({"a_wall_s": wa, "b_wall_s": wb, "a_cpu_s": ca, "b_cpu_s": cb})
    print(f"pair {i + 1}: A {wa:.2f} s, B {wb:.2f} s, B/A {wb / wa:.3f}", flush=True)

ratios = [p["b_wall_s"] / p["a_wall_s"] for p in pairs]
b.save(
    a.out,
    {
        "messages": N,
        "a": a.a,
        "b": a.b,
        "pairs": pairs,
        "a_median_wall_s": statistics.median(p["a_wall_s"] for p in pairs),
        "b_median_wall_s": statistics.median(p["b_wall_s"] for p in pairs),
        "paired_median_ratio": statistics.median(ratios),
        "b_faster_in": sum(r < 1 for r in ratios),
    },
)
