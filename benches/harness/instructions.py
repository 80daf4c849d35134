# benches/harness/instructions.py — user-space instructions (valgrind's
# callgrind, all threads) of `wildt serve --once` answering one move in each
# of the scale stage's long games (ply 307) and in each of its short ones
# (ply 7), per binary. Instructions do not move with the machine's load the
# way CPU time does (+-30 % between runs on a shared VM), so a change of a
# few percent in the work a move costs can be seen; the kernel's part (file
# and WAL writes, page faults) is not in them: time is still the judge.
# Needs the folder the scale stage leaves (`BENCH_FS=host benches/run.sh
# --only scale` keeps it in /tmp/wildt-bench/scale). Does IO: copies of that
# folder, subprocesses.
import argparse
import os
import re
import shutil
import sqlite3
import subprocess

import benchlib as b

ap = argparse.ArgumentParser()
ap.add_argument("--scale", default="/tmp/wildt-bench/scale/small", help="the scale stage's database folder")
ap.add_argument("--work", default="/tmp/wildt-bench/instructions")
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


def instructions(binary, name, ply):
    src, n = prepare(f"{name}.src", ply)
    run = os.path.join(a.work, "run")
    shutil.rmtree(run, ignore_errors=True)
    shutil.copytree(src, run)
    cfg = os.path.join(run, "wildt.toml")
    with open(cfg) as f:
        text = f.read().replace(src, run)
    with open(cfg, "w") as f:
        f.write(text)
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, "serve", "--once", "--config", cfg],
        capture_output=True, check=True,
    )
    found = re.search(rb"Collected : (\d+)", out.stderr)
    assert found, out.stderr.decode(errors="replace")[-2000:]
    return int(found.group(1)), n


for binary in a.binaries:
    empty, _ = instructions(binary, "empty", None)
    long_ir, n = instructions(binary, "long", 307)
    short_ir, m = instructions(binary, "short", 7)
    per_long = (long_ir - empty) / n
    per_short = (short_ir - empty) / m
    print(f"{binary}: empty run {empty:,}; per move at ply 307 {per_long:,.0f}, at ply 7 {per_short:,.0f}"
          f" ({per_long / per_short:.2f}x)")
