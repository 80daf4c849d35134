# benches/harness/pipeline_backends.py — the pipeline's work (G games x P
# plies of move mails in a Maildir, file outbox, `serve --once`) on SQLite
# with one daemon and on PostgreSQL with one daemon and with several
# daemons sharing the database and the Maildir. Each run starts from the
# same games and mails (a fresh SQLite file or a fresh PostgreSQL database,
# games made by the bench_mkgames example outside the timed part); the time
# is from the daemons' start to the last one's exit, every move recorded and
# no mail left waiting (checked). Runs alternate between the setups, so a
# drift of the machine's speed touches each alike; prints each setup's
# runs, the median and messages per second.
#
# PostgreSQL: the test rig's (scripts/pg-rig/start.sh; source the env file
# it prints): WILDT_PG_URL names its server and role, WILDT_PG_PASSWORD_FILE
# the password, WILDT_PG_BIN its psql. Does IO: a work folder, databases
# created in that server, subprocesses.
import argparse
import json
import os
import shutil
import statistics
import subprocess
import time

import benchlib as b

ap = argparse.ArgumentParser()
ap.add_argument("binary", help="the wildt binary to measure")
ap.add_argument("--runs", type=int, default=3)
ap.add_argument("--games", type=int, default=1000)
ap.add_argument("--plies", type=int, default=10)
ap.add_argument("--daemons", default="1,3", help="PostgreSQL setups: daemons per run")
ap.add_argument("--mkgames", default=os.path.join(b.ROOT, "target", "release", "examples", "bench_mkgames"))
ap.add_argument("--work", default="/tmp/wildt-bench/backends")
ap.add_argument("--out", required=True)
a = ap.parse_args()

REF = "chess@club.example"
PG_URL = os.environ["WILDT_PG_URL"]
PG_PASSWORD_FILE = os.environ["WILDT_PG_PASSWORD_FILE"]
with open(PG_PASSWORD_FILE) as f:
    PG_ENV = dict(os.environ, PGPASSWORD=f.read().strip())
PG_SERVER = PG_URL.rsplit("/", 1)[0]
PSQL = os.path.join(os.environ["WILDT_PG_BIN"], "psql")
N = a.games * a.plies
plies = [b.random_plies(10_000 + i, a.plies) for i in range(a.games)]


def psql(db, sql):
    out = subprocess.run(
        [PSQL, f"{PG_SERVER}/{db}", "-qtA", "-v", "ON_ERROR_STOP=1", "-c", sql],
        check=True,
        capture_output=True,
        text=True,
        env=PG_ENV,
    )
    return out.stdout.strip()


def prepare(backend, n):
    """A fresh work folder with its config, games and mails; returns the config."""
    run = os.path.join(a.work, f"{backend}-{n}")
    shutil.rmtree(run, ignore_errors=True)
    os.makedirs(run)
    cfg = b.maildir_config(run, REF)
    if backend == "postgres":
        db = f"bench_{os.getpid()}_{n}"
        psql("wildt", f"DROP DATABASE IF EXISTS {db}")
        psql("wildt", f"CREATE DATABASE {db}")
        with open(cfg) as f:
            text = f.read()
        text = text.replace(
            f'url = "sqlite://{os.path.join(run, "wildt.db")}"',
            f'url = "{PG_SERVER}/{db}"\npassword_file = "{PG_PASSWORD_FILE}"',
        )
        with open(cfg, "w") as f:
            f.write(text)
    made = subprocess.run([a.mkgames, cfg, str(a.games), str(a.games)], check=True, capture_output=True, text=True)
    games = [json.loads(line) for line in made.stdout.splitlines()]
    assert len(games) == a.games, made.stdout[-500:]
    b.write_maildir(os.path.join(run, "mail"), b.round_robin_mails(games, plies, "p"))
    os.sync()
    return run, cfg, (db if backend == "postgres" else None)


def one(backend, n):
    run, cfg, db = prepare(backend, n)
    t0 = time.perf_counter()
    procs = [
        subprocess.Popen([a.binary, "serve", "--once", "--config", cfg], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for _ in range(n)
    ]
    errs = [p.communicate()[1] for p in procs]
    wall = time.perf_counter() - t0
    for p, e in zip(procs, errs):
        assert p.returncode == 0, e.decode(errors="replace")[-2000:]
    if db:
        moves = int(psql(db, "SELECT COUNT(*) FROM moves"))
        psql("wildt", f"DROP DATABASE {db}")
    else:
        moves = b.count(os.path.join(run, "wildt.db"), "SELECT COUNT(*) FROM moves")
    assert moves == N, f"{backend} x{n}: {moves} of {N} moves recorded"
    left = os.listdir(os.path.join(run, "mail", "new"))
    assert not left, f"{backend} x{n}: {len(left)} mails left waiting"
    shutil.rmtree(run)
    return wall


setups = [("sqlite", 1)] + [("postgres", int(n)) for n in a.daemons.split(",")]
walls = {s: [] for s in setups}
for r in range(a.runs):
    for s in setups if r % 2 == 0 else list(reversed(setups)):
        w = one(*s)
        walls[s].append(w)
        print(f"run {r + 1}: {s[0]} x{s[1]}: {w:.2f} s ({N / w:.0f} msg/s)", flush=True)
result = {
    "games": a.games,
    "plies": a.plies,
    "messages": N,
    "setups": [
        {
            "backend": s[0],
            "daemons": s[1],
            "walls": [round(w, 3) for w in walls[s]],
            "median_s": round(statistics.median(walls[s]), 3),
            "msgs_per_s": round(N / statistics.median(walls[s])),
        }
        for s in setups
    ],
}
b.save(a.out, result)
