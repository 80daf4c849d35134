# benches/harness/instructions.py — user-space instructions (valgrind's
# callgrind, all threads) of `wildt serve --once` answering one move in each
# of the scale stage's long games (ply 307) and in each of its short ones
# (ply 7; `--plies` for a stage run with other rounds), per binary.
# Instructions do not move with the machine's load the way CPU time does
# (+-30 % between runs on a shared VM), so a change of a few percent in
# the work a move costs can be seen; the kernel's part (file
# and WAL writes, page faults) is not in them: time is still the judge.
# Also printed without libc's bulk copies and fills (memcpy, memset of
# more than a few KB): valgrind counts a byte of those as an instruction,
# which makes a long game's copies look a hundred times dearer than they
# are.
# Needs the folder the scale stage leaves (`BENCH_FS=host benches/run.sh
# --only scale` keeps it in /tmp/wildt-bench/scale). With `--time N`, the
# same runs are timed instead (no valgrind): N rounds alternating long,
# short and empty, wall and CPU per move from the medians. Does IO: copies
# of that folder, subprocesses.
import argparse
import os
import re
import resource
import shutil
import sqlite3
import statistics
import subprocess
import time

import benchlib as b

ap = argparse.ArgumentParser()
ap.add_argument("--scale", default="/tmp/wildt-bench/scale/small", help="the scale stage's database folder")
ap.add_argument("--work", default="/tmp/wildt-bench/instructions")
ap.add_argument("--time", type=int, metavar="ROUNDS", help="time the runs instead of counting instructions")
ap.add_argument("--plies", type=int, nargs=2, default=[307, 7], metavar=("LONG", "SHORT"),
                help="the plies the long and short games are at (the scale stage's rounds + 300 and + 0)")
ap.add_argument("binaries", nargs="+")
a = ap.parse_args()


def prepare(name, ply):
    """A copy of the scale database with one move mail to each game at
    `ply` (`None`: none, an empty run)."""
    d = os.path.join(a.work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    shutil.copy(os.path.join(a.scale, "wildt.db"), os.path.join(d, "wildt.db"))
    cfg = open(os.path.join(a.scale, "wildt.toml")).read().replace(a.scale, d)
    with open(os.path.join(d, "wildt.toml"), "w") as f:
        f.write(cfg)
    if ply is None:
        b.write_maildir(os.path.join(d, "mail"), [])
        return d, 0
    db = sqlite3.connect(os.path.join(d, "wildt.db"))
    rows = db.execute(
        "SELECT g.id, white_email, black_email, white_key, black_key FROM games g"
        " JOIN (SELECT game_id, COUNT(*) n FROM moves GROUP BY game_id) m ON m.game_id = g.id"
        " WHERE n = ? ORDER BY g.id",
        (ply,),
    ).fetchall()
    db.close()
    assert rows, f"no game at ply {ply} in {a.scale}"
    games = [{"id": i, "white": (we, f"chess+{i}-{wk}@club.example"), "black": (be, f"chess+{i}-{bk}@club.example")}
             for i, we, be, wk, bk in rows]
    mails = b.round_robin_mails(games, [[b.SHUFFLE[ply % 4]] for _ in games], "i", start_ply=ply)
    b.write_maildir(os.path.join(d, "mail"), mails)
    return d, len(games)


def fresh_run(src):
    """A copy of a prepared folder to run in, its config pointed at it."""
    run = os.path.join(a.work, "run")
    shutil.rmtree(run, ignore_errors=True)
    shutil.copytree(src, run)
    cfg = os.path.join(run, "wildt.toml")
    with open(cfg) as f:
        text = f.read().replace(src, run)
    with open(cfg, "w") as f:
        f.write(text)
    return cfg


# libc's bulk copy and fill: valgrind counts each byte a `rep movsb` or
# `rep stosb` moves as an instruction, so a copy of 11 KB is 11,000
# "instructions" that the processor does in a few hundred cycles.
BULK = re.compile(r"__mem(cpy|move|set)_\w*erms")


def instructions(binary, src):
    """(all instructions, those outside libc's bulk copies and fills) of one run."""
    profile = os.path.join(os.path.abspath(a.work), "callgrind.out")
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}", binary, "serve", "--once", "--config",
         fresh_run(src)],
        capture_output=True, check=True,
    )
    found = re.search(rb"Collected : (\d+)", out.stderr)
    assert found, out.stderr.decode(errors="replace")[-2000:]
    total = int(found.group(1))
    listing = subprocess.run(["callgrind_annotate", "--auto=no", "--threshold=100", profile],
                             capture_output=True, check=True, text=True).stdout
    bulk = sum(int(line.split()[0].replace(",", "")) for line in listing.splitlines()
               if BULK.search(line) and line.strip()[:1].isdigit())
    os.remove(profile)
    return total, total - bulk


def timed(binary, src):
    """Wall and CPU (user + sys) seconds of one run."""
    cfg = fresh_run(src)
    os.sync()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([binary, "serve", "--once", "--config", cfg], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


sets = {"empty": prepare("empty.src", None), "long": prepare("long.src", a.plies[0]),
        "short": prepare("short.src", a.plies[1])}
for binary in a.binaries:
    if a.time:
        runs = {k: [] for k in sets}
        for _ in range(a.time):
            for k in ("long", "short", "empty"):
                runs[k].append(timed(binary, sets[k][0]))
        med = {k: [statistics.median(r[j] for r in v) for j in (0, 1)] for k, v in runs.items()}
        per = {k: [1000 * (med[k][j] - med["empty"][j]) / sets[k][1] for j in (0, 1)] for k in ("long", "short")}
        print(f"{binary}: ms per move at ply {a.plies[0]} {per['long'][0]:.3f} wall, {per['long'][1]:.3f} CPU;"
              f" at ply {a.plies[1]} {per['short'][0]:.3f} wall, {per['short'][1]:.3f} CPU"
              f" ({per['long'][0] / per['short'][0]:.2f}x wall, {per['long'][1] / per['short'][1]:.2f}x CPU;"
              f" medians of {a.time} runs)")
        continue
    runs = {k: instructions(binary, sets[k][0]) for k in ("empty", "long", "short")}
    per = {k: [(runs[k][j] - runs["empty"][j]) / sets[k][1] for j in (0, 1)] for k in ("long", "short")}
    print(f"{binary}: empty run {runs['empty'][0]:,}; per move at ply {a.plies[0]} {per['long'][0]:,.0f},"
          f" at ply {a.plies[1]} {per['short'][0]:,.0f} ({per['long'][0] / per['short'][0]:.2f}x);"
          f" without libc's bulk copies and fills {per['long'][1]:,.0f} and {per['short'][1]:,.0f}"
          f" ({per['long'][1] / per['short'][1]:.2f}x)")
