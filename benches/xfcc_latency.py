#!/usr/bin/env python3
"""Latency of wildt's Xfcc server: GetMyGames for a player with 50 games, and
MakeAMove, as a chess GUI sees them (request sent to answer read), p50 and p99.

    cargo build --release
    python3 benches/xfcc_latency.py [--bin target/release/wildt] [--games 50]
        [--fetches 1000] [--plies 10] [--work DIR] [--out results.json]

Setup: the embedded default configuration (config/local.toml: Maildir in, file
outbox out, SQLite) in a fresh folder, with an [xfcc] section on a free
loopback port; one player with --games games under 10/50 against as many
opponents, made with `wildt game new`, and their passwords set with `wildt
player set --xfcc-password-file`. Then `wildt serve` runs and this script is
the client, over one keep-alive HTTP connection per player, sending the SOAP
requests zeep sends:

- GetMyGames: --fetches calls by the player with the games (after 20 not
  counted); every answer is checked to hold all the games.
- MakeAMove: --plies plies of every game (the player with the games as White,
  then each opponent), --games x --plies calls; every answer is checked to be
  Success. Each one is decided, committed and its mails queued before the
  answer, as a mailed move is.

Every call checks the password (Argon2id), so both figures include one hash.
Prints a table and writes the figures as JSON. Does IO: processes, files in
--work (a temporary folder by default), loopback network.
"""

import argparse
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NS = "http://www.bennedik.com/webservices/XfccBasic"
# A line without repetitions or captures that end anything: 10 plies.
LINE = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6", "d4", "exd4"]


def envelope(body):
    return (
        "<?xml version='1.0' encoding='utf-8'?>\n"
        '<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/">'
        "<soap-env:Body>%s</soap-env:Body></soap-env:Envelope>" % body
    ).encode()


def get_my_games(user, password):
    return envelope(
        '<ns0:GetMyGames xmlns:ns0="%s"><ns0:username>%s</ns0:username>'
        "<ns0:password>%s</ns0:password></ns0:GetMyGames>" % (NS, user, password)
    )


def make_a_move(user, password, game, movecount, move):
    fields = [
        ("username", user),
        ("password", password),
        ("gameId", game),
        ("resign", "false"),
        ("acceptDraw", "false"),
        ("movecount", movecount),
        ("myMove", move),
        ("offerDraw", "false"),
        ("claimDraw", "false"),
        ("myMessage", ""),
    ]
    inner = "".join("<ns0:%s>%s</ns0:%s>" % (k, v, k) for k, v in fields)
    return envelope('<ns0:MakeAMove xmlns:ns0="%s">%s</ns0:MakeAMove>' % (NS, inner))


class Client:
    """One keep-alive connection, as zeep (requests) keeps one."""

    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, action, body):
        headers = {
            "Content-Type": "text/xml; charset=utf-8",
            "SOAPAction": '"%s/%s"' % (NS, action),
        }
        start = time.perf_counter()
        self.conn.request("POST", "/xfccbasic.asmx", body, headers)
        resp = self.conn.getresponse()
        data = resp.read()
        elapsed = time.perf_counter() - start
        if resp.status != 200:
            sys.exit("%s answered HTTP %d: %s" % (action, resp.status, data[:500]))
        return elapsed, data.decode()


def wildt(bin_, work, *args):
    out = subprocess.run(
        [bin_, *args, "--config", str(work / "wildt.toml")],
        cwd=work,
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        sys.exit("wildt %s failed: %s" % (" ".join(args), out.stderr))
    return out.stdout


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values, p):
    """The nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def summary(seconds):
    ms = [s * 1000 for s in seconds]
    return {
        "calls": len(ms),
        "p50_ms": round(percentile(ms, 50), 2),
        "p99_ms": round(percentile(ms, 99), 2),
        "mean_ms": round(statistics.fmean(ms), 2),
        "max_ms": round(max(ms), 2),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.environ.get("WILDT_BIN", str(ROOT / "target/release/wildt")))
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--fetches", type=int, default=1000)
    ap.add_argument("--plies", type=int, default=10, help="at most %d" % len(LINE))
    ap.add_argument("--work", help="a folder to work in (default: a temporary one, removed)")
    ap.add_argument("--out", help="write the figures as JSON here")
    args = ap.parse_args()
    if not 1 <= args.plies <= len(LINE):
        sys.exit("--plies is 1 to %d" % len(LINE))
    bin_ = str(Path(args.bin).resolve())
    if not os.access(bin_, os.X_OK):
        sys.exit("%s is not there: cargo build --release (or --bin)" % bin_)

    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="wildt-xfcc-"))
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    port = free_port()
    config = (ROOT / "config/local.toml").read_text()
    config += '\n[xfcc]\nlisten = "127.0.0.1:%d"\n' % port
    (work / "wildt.toml").write_text(config)

    player = "bench@example.org"
    opponents = ["opp%02d@example.net" % i for i in range(args.games)]
    password = "bench-password"
    (work / "password").write_text(password + "\n")
    games = []
    for opp in opponents:
        made = wildt(bin_, work, "game", "new", "--no-mail", "--time", "10/50",
                     "--white", player, "--black", opp, "--json")
        games.append(json.loads(made)["id"])
    for who in [player, *opponents]:
        wildt(bin_, work, "player", "set", who, "--xfcc-password-file", str(work / "password"))

    log = open(work / "serve.log", "w")
    serve = subprocess.Popen([bin_, "serve", "--config", str(work / "wildt.toml")],
                             cwd=work, stdout=subprocess.DEVNULL, stderr=log)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or serve.poll() is not None:
                    sys.exit("wildt serve did not listen on %d: see %s" % (port, work / "serve.log"))
                time.sleep(0.05)

        client = Client(port)
        body = get_my_games(player, password)
        fetch_times = []
        for i in range(20 + args.fetches):
            elapsed, answer = client.call("GetMyGames", body)
            if answer.count("<XfccGame>") != args.games:
                sys.exit("GetMyGames listed %d games, not %d" % (answer.count("<XfccGame>"), args.games))
            if i >= 20:
                fetch_times.append(elapsed)

        clients = {who: Client(port) for who in [player, *opponents]}
        move_times = []
        for ply in range(args.plies):
            for game, opp in zip(games, opponents):
                who = player if ply % 2 == 0 else opp
                elapsed, answer = clients[who].call(
                    "MakeAMove", make_a_move(who, password, game, ply // 2 + 1, LINE[ply]))
                if "<MakeAMoveResult>Success</MakeAMoveResult>" not in answer:
                    sys.exit("MakeAMove %s in game %d: %s" % (LINE[ply], game, answer))
                move_times.append(elapsed)
    finally:
        serve.terminate()
        serve.wait(timeout=30)
        log.close()

    figures = {
        "binary": bin_,
        "games": args.games,
        "get_my_games": summary(fetch_times),
        "make_a_move": summary(move_times),
    }
    print("| call | calls | p50 ms | p99 ms | mean ms | max ms |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, key in [("GetMyGames, %d games" % args.games, "get_my_games"),
                      ("MakeAMove", "make_a_move")]:
        f = figures[key]
        print("| %s | %d | %.1f | %.1f | %.1f | %.1f |"
              % (name, f["calls"], f["p50_ms"], f["p99_ms"], f["mean_ms"], f["max_ms"]))
    if args.out:
        Path(args.out).write_text(json.dumps(figures, indent=1) + "\n")
    if not args.work:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
