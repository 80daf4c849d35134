#!/usr/bin/env python3
# benches/harness/baseline/referee.py — THE BASELINE, not wildt: "the afternoon script".
# A competent, simple Python referee doing the same job as `wildt serve --once`,
# used only so every benchmark figure can be shown as a ratio. It reads a Maildir
# (new/, oldest first) or an IMAP inbox (unseen), parses each mail with the
# `email` package, takes the first 4-5 digit token of the non-quoted text, finds
# the game by the `<local>+<game>-<key>@domain` address in sqlite3, checks the
# move with python-chess, records it, and writes the two reply mails (to the
# mover and the opponent) as .eml files or sends them with smtplib.
# It has none of wildt's care (loops, auto-replies, auth, draws, retries).
# Does IO: files, SQLite, IMAP, SMTP.
import argparse
import email
import email.policy
import imaplib
import os
import re
import secrets
import smtplib
import sqlite3
import time
from email.message import EmailMessage
from email.utils import getaddresses, make_msgid, parseaddr

import chess

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY, white TEXT, black TEXT,
  wkey TEXT, bkey TEXT, fen TEXT, plies INTEGER DEFAULT 0);
CREATE TABLE IF NOT EXISTS moves (game INTEGER, ply INTEGER, iccf TEXT, PRIMARY KEY (game, ply));
CREATE TABLE IF NOT EXISTS seen (message_id TEXT PRIMARY KEY);
"""
TOKEN = re.compile(r"\b([1-8]{4}[1-4]?)\b")
PIECE = {"1": chess.QUEEN, "2": chess.ROOK, "3": chess.BISHOP, "4": chess.KNIGHT}


def open_db(path):
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.executescript(SCHEMA)
    return conn


def new_game(conn, referee, white, black):
    local, domain = referee.split("@")
    wkey, bkey = secrets.token_hex(4), secrets.token_hex(4)
    cur = conn.execute(
        "INSERT INTO games (white, black, wkey, bkey, fen) VALUES (?, ?, ?, ?, ?)",
        (white, black, wkey, bkey, chess.STARTING_FEN),
    )
    conn.commit()
    gid = cur.lastrowid
    return gid, f"{local}+{gid}-{wkey}@{domain}", f"{local}+{gid}-{bkey}@{domain}"


def own_text(msg):
    part = msg.get_body(preferencelist=("plain",))
    text = part.get_content() if part else ""
    lines = []
    for line in text.splitlines():
        if line.startswith(">") or line.startswith("On ") and line.rstrip().endswith("wrote:"):
            break
        if line.strip() == "--":
            break
        lines.append(line)
    return "\n".join(lines)


def to_move(board, digits):
    f1, r1, f2, r2 = (int(c) - 1 for c in digits[:4])
    promo = PIECE.get(digits[4]) if len(digits) == 5 else None
    m = chess.Move(chess.square(f1, r1), chess.square(f2, r2), promotion=promo)
    return m if m in board.legal_moves else None


def reply(referee, to, subject, body, in_reply_to):
    m = EmailMessage()
    m["From"] = referee
    m["To"] = to
    m["Subject"] = subject
    m["Message-ID"] = make_msgid(domain=referee.split("@")[1])
    if in_reply_to:
        m["In-Reply-To"] = in_reply_to
    m.set_content(body)
    return m


def handle(conn, raw, referee):
    """One message -> list of reply EmailMessages (committed before returning)."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    mid = msg.get("Message-ID", "")
    if mid and conn.execute("SELECT 1 FROM seen WHERE message_id = ?", (mid,)).fetchone():
        return []
    sender = parseaddr(msg.get("From", ""))[1].lower()
    local, domain = referee.split("@")
    addr = re.compile(rf"^{re.escape(local)}\+(\d+)-([a-z0-9]+)@{re.escape(domain)}$", re.I)
    game = None
    for _, a in getaddresses(msg.get_all("To", []) + msg.get_all("Cc", [])):
        hit = addr.match(a)
        if hit:
            game = (int(hit.group(1)), hit.group(2).lower())
            break
    out = []
    with conn:
        if mid:
            conn.execute("INSERT INTO seen VALUES (?)", (mid,))
        if not game:
            return out
        row = conn.execute(
            "SELECT white, black, wkey, bkey, fen, plies FROM games WHERE id = ?", (game[0],)
        ).fetchone()
        if not row or game[1] not in (row[2], row[3]):
            return out
        white, black, wkey, bkey, fen, plies = row
        seat_white = game[1] == wkey
        me, them = (white, black) if seat_white else (black, white)
        board = chess.Board(fen)
        tok = TOKEN.search(own_text(msg))
        subject = f"Game {game[0]}"
        if board.turn != seat_white:
            out.append(reply(referee, me, subject, "It is not your move.", mid))
            return out
        mv = to_move(board, tok.group(1)) if tok else None
        if mv is None:
            out.append(reply(referee, me, subject, "No legal move found in your mail.", mid))
            return out
        board.push(mv)
        conn.execute("INSERT INTO moves VALUES (?, ?, ?)", (game[0], plies + 1, tok.group(1)))
        conn.execute("UPDATE games SET fen = ?, plies = ? WHERE id = ?", (board.fen(), plies + 1, game[0]))
        out.append(reply(referee, me, subject, f"Accepted: {tok.group(1)}\n\n{board}\n", mid))
        out.append(reply(referee, them, subject, f"Your opponent played {tok.group(1)}\n\n{board}\n", mid))
    return out


class FileOut:
    def __init__(self, path):
        self.path, self.n = path, 0
        os.makedirs(path, exist_ok=True)

    def send(self, m):
        self.n += 1
        with open(os.path.join(self.path, f"{time.time_ns()}-{self.n}.eml"), "wb") as f:
            f.write(m.as_bytes())

    def close(self):
        pass


class SmtpOut:
    def __init__(self, host, port):
        self.smtp = smtplib.SMTP(host, port)

    def send(self, m):
        self.smtp.send_message(m)

    def close(self):
        self.smtp.quit()


def run_maildir(conn, path, referee, out):
    new = os.path.join(path, "new")
    names = sorted(os.listdir(new), key=lambda n: (os.stat(os.path.join(new, n)).st_mtime, n))
    for n in names:
        p = os.path.join(new, n)
        with open(p, "rb") as f:
            raw = f.read()
        for m in handle(conn, raw, referee):
            out.send(m)
        os.rename(p, os.path.join(path, "cur", n + ":2,S"))
    return len(names)


def run_imap(conn, host, port, user, password, referee, out):
    imap = imaplib.IMAP4(host, port)
    imap.login(user, password)
    imap.select("INBOX")
    _, data = imap.uid("SEARCH", None, "UNSEEN")
    uids = data[0].split()
    for uid in uids:
        _, fetched = imap.uid("FETCH", uid, "(BODY.PEEK[])")
        for m in handle(conn, fetched[0][1], referee):
            out.send(m)
        imap.uid("STORE", uid, "+FLAGS.SILENT", "(\\Seen)")
    imap.logout()
    return len(uids)


def main():
    ap = argparse.ArgumentParser(description="baseline referee (the afternoon script)")
    ap.add_argument("--db", required=True)
    ap.add_argument("--referee", required=True)
    ap.add_argument("--maildir")
    ap.add_argument("--imap", help="host:port")
    ap.add_argument("--user")
    ap.add_argument("--password")
    ap.add_argument("--outdir")
    ap.add_argument("--smtp", help="host:port")
    ap.add_argument("--poll", type=float, help="keep polling every N seconds")
    a = ap.parse_args()
    conn = open_db(a.db)
    while True:
        out = FileOut(a.outdir) if a.outdir else SmtpOut(*_hp(a.smtp))
        if a.maildir:
            n = run_maildir(conn, a.maildir, a.referee, out)
        else:
            n = run_imap(conn, *_hp(a.imap), a.user, a.password, a.referee, out)
        out.close()
        if not a.poll:
            print(f"{n} messages")
            return
        time.sleep(a.poll)


def _hp(s):
    h, p = s.rsplit(":", 1)
    return h, int(p)


if __name__ == "__main__":
    main()
