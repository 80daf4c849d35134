# benches/harness/benchlib.py — shared helpers for the wildt benchmark drivers (benches/run.sh).
# Precomputes legal plies with python-chess, creates games with the real
# `wildt game new` CLI (or the baseline's own `new-game`), writes configs and move
# mails, and measures child processes (wall, user+sys CPU, peak RSS). Does IO:
# files, subprocesses, SQLite (read-only counts).
import json
import os
import random
import sqlite3
import subprocess
import sys
import time

import chess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WILDT = os.environ.get("WILDT_BIN", os.path.join(ROOT, "target", "release", "wildt"))
BASELINE = os.path.join(HERE, "baseline", "referee.py")
PROMO = {chess.QUEEN: "1", chess.ROOK: "2", chess.BISHOP: "3", chess.KNIGHT: "4"}
# Knight shuffle back to the start position every 4 plies (g1-f3, g8-f6, f3-g1, f6-g8).
SHUFFLE = ["7163", "7866", "6371", "6678"]


def iccf(move):
    f, t = move.from_square, move.to_square
    s = f"{chess.square_file(f) + 1}{chess.square_rank(f) + 1}{chess.square_file(t) + 1}{chess.square_rank(t) + 1}"
    return s + (PROMO[move.promotion] if move.promotion else "")


def random_plies(seed, n):
    """n legal ICCF plies from a seeded random game (varied openings, never a finished game)."""
    rng = random.Random(seed)
    while True:
        board = chess.Board()
        out = []
        for _ in range(n):
            moves = list(board.legal_moves)
            if not moves:
                break
            m = rng.choice(moves)
            out.append(iccf(m))
            board.push(m)
        if len(out) == n and not board.is_game_over(claim_draw=False):
            return out
        seed += 1_000_003
        rng = random.Random(seed)


def write_config(path, *, db, referee, inbox, outbox):
    """inbox/outbox: dicts of TOML keys for [inbox]/[outbox]."""

    def table(name, d):
        lines = [f"[{name}]"]
        for k, v in d.items():
            lines.append(f"{k} = {json.dumps(v)}")
        return "\n".join(lines)

    text = "\n\n".join(
        [
            table("referee", {"address": referee, "name": "Bench referee"}),
            table("database", {"url": f"sqlite://{db}"}),
            table("inbox", inbox),
            table("outbox", outbox),
            table(
                "limits",
                {"games_per_player": 1_000_000, "replies_per_sender_per_hour": 1_000_000},
            ),
        ]
    )
    with open(path, "w") as f:
        f.write(text + "\n")


def maildir_config(d, referee):
    """The config `d/wildt.toml` of the Maildir stages: database `d/wildt.db`,
    Maildir inbox `d/mail`, file outbox `d/outbox`; returns its path."""
    cfg = os.path.join(d, "wildt.toml")
    write_config(
        cfg,
        db=os.path.join(d, "wildt.db"),
        referee=referee,
        inbox={"kind": "maildir", "path": os.path.join(d, "mail")},
        outbox={"kind": "file", "path": os.path.join(d, "outbox")},
    )
    return cfg


def wildt_new_games(cfg, n, white, black):
    """n games through `wildt game new --no-mail --json`; white/black: i -> email."""
    games = []
    for i in range(n):
        out = subprocess.run(
            [WILDT, "game", "new", "--config", cfg, "--white", white(i), "--black", black(i), "--no-mail", "--json"],
            check=True,
            capture_output=True,
        )
        v = json.loads(out.stdout)
        games.append(
            {
                "id": v["id"],
                "white": (v["white"]["email"], v["white"]["address"]),
                "black": (v["black"]["email"], v["black"]["address"]),
            }
        )
    return games


def baseline_new_games(db, referee, n, white, black):
    """n games in the baseline's own database (its `new-game` code path, in-process)."""
    sys.path.insert(0, os.path.join(HERE, "baseline"))
    import referee as base  # noqa: E402

    conn = base.open_db(db)
    games = []
    for i in range(n):
        gid, wa, ba = base.new_game(conn, referee, white(i), black(i))
        games.append({"id": gid, "white": (white(i), wa), "black": (black(i), ba)})
    conn.close()
    return games


def move_mail(frm, to, msg_id, body):
    return (
        f"From: {frm}\r\nTo: {to}\r\nSubject: move\r\nMessage-ID: <{msg_id}>\r\n"
        f"Date: Sun, 22 Nov 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    )


def move_body(ply_index, mv):
    """'1. 5254' for White's first move, '1... 7775' for Black's."""
    n = ply_index // 2 + 1
    return f"{n}. {mv}" if ply_index % 2 == 0 else f"{n}... {mv}"


def round_robin_mails(games, plies, tag, start_ply=0):
    """Mails ordered round by round: ply k of every game before ply k+1 of any."""
    mails = []
    for k in range(len(plies[0])):
        for g, pl in zip(games, plies):
            p = start_ply + k
            seat = g["white"] if p % 2 == 0 else g["black"]
            mails.append(move_mail(seat[0], seat[1], f"{tag}-{g['id']}-{p}@bench", move_body(p, pl[k])))
    return mails


def write_maildir(root, mails, prefix="m"):
    """Writes mails into root/new with increasing mtimes and sortable names."""
    for sub in ("new", "cur", "tmp"):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    base = time.time() - len(mails) - 10
    for i, raw in enumerate(mails):
        p = os.path.join(root, "new", f"{prefix}{i:08d}.bench")
        with open(p, "w") as f:
            f.write(raw)
        t = base + i * 0.001
        os.utime(p, (t, t))


def timed(cmd, env=None):
    """Runs cmd under /usr/bin/time; returns (wall s, user+sys s, peak RSS KiB, stdout)."""
    tf = f"/tmp/wildt-bench-time.{os.getpid()}"
    t0 = time.perf_counter()
    out = subprocess.run(["/usr/bin/time", "-o", tf, "-f", "%U %S %M"] + cmd, capture_output=True, env=env)
    wall = time.perf_counter() - t0
    if out.returncode != 0:
        sys.stderr.write(out.stderr.decode(errors="replace")[-3000:])
        raise SystemExit(f"failed: {' '.join(cmd)}")
    with open(tf) as f:
        u, s_, m = f.read().split()[-3:]
    return wall, float(u) + float(s_), int(m), out.stdout.decode(errors="replace")


def count(db, sql):
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql).fetchone()[0]
    finally:
        conn.close()


def save(path, data):
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
    print(json.dumps(data))
