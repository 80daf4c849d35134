# benches/harness/io_floor.py — the floor of the pipeline stage: what the
# kernel must do for each message of the workload whatever the program,
# with nothing else. For every message of a Maildir: open, read and close
# it; move it from new/ to cur/; write two reply files of `--reply-bytes`
# into an outbox folder (an unnamed file, O_TMPFILE, linked in when whole,
# as a file outbox must not show half a mail: one directory change a reply,
# the cheapest way there is; a temporary name and a rename where the file
# system has no O_TMPFILE); and one row per message in a SQLite database
# (WAL, `synchronous = FULL`), committed once per 64 messages, as the
# durable record that it was handled. No parsing, no chess, no rendering.
# Split over `--procs` processes (each its own share of the names and its
# own database: the most generous split there is). Prints and saves the
# kernel and user CPU per message (getrusage of the workers) and the
# messages per second. Does IO: the given folders, subprocesses.
import argparse
import ctypes
import errno
import json
import multiprocessing
import os
import resource
import sqlite3
import time

ap = argparse.ArgumentParser()
ap.add_argument("--maildir", required=True)
ap.add_argument("--outbox", required=True)
ap.add_argument("--db", required=True, help="a path prefix: one database per process")
ap.add_argument("--reply-bytes", type=int, default=11000)
ap.add_argument("--group", type=int, default=64)
ap.add_argument("--procs", type=int, default=1)
ap.add_argument("--out")
a = ap.parse_args()


LIBC = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, AT_SYMLINK_FOLLOW = -100, 0x400


def write_reply(path, body):
    """`body` as the file `path`, seen only whole."""
    try:
        fd = os.open(os.path.dirname(path), os.O_TMPFILE | os.O_WRONLY, 0o644)
    except OSError as e:
        if e.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
            raise
        tmp = os.path.join(os.path.dirname(path), "tmp", os.path.basename(path))
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, body)
        os.close(fd)
        os.rename(tmp, path)
        return
    os.write(fd, body)
    # linkat of /proc/self/fd/N following the link: the unnamed file gets
    # its name (Python's os.link does not follow it).
    if LIBC.linkat(AT_FDCWD, f"/proc/self/fd/{fd}".encode(), AT_FDCWD, path.encode(), AT_SYMLINK_FOLLOW) != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e), path)
    os.close(fd)


def work(share, k, body):
    new, cur, tmp = (os.path.join(a.maildir, d) for d in ("new", "cur", "tmp"))
    db = sqlite3.connect(f"{a.db}.{k}", isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("CREATE TABLE IF NOT EXISTS handled (name TEXT PRIMARY KEY, bytes INTEGER)")
    done = 0
    for start in range(0, len(share), a.group):
        db.execute("BEGIN")
        for name in share[start:start + a.group]:
            fd = os.open(os.path.join(new, name), os.O_RDONLY)
            data = os.read(fd, 1 << 22)
            os.close(fd)
            db.execute("INSERT INTO handled VALUES (?, ?)", (name, len(data)))
            for r in (0, 1):
                write_reply(os.path.join(a.outbox, f"{k}-{done}-{r}.eml"), body)
            os.rename(os.path.join(new, name), os.path.join(cur, name + ":2,S"))
            done += 1
        db.execute("COMMIT")
    db.close()


names = sorted(os.listdir(os.path.join(a.maildir, "new")))
os.makedirs(os.path.join(a.outbox, "tmp"), exist_ok=True)
os.makedirs(os.path.join(a.maildir, "cur"), exist_ok=True)
body = (b"x" * 76 + b"\r\n") * (a.reply_bytes // 78)
before = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.monotonic()
procs = [multiprocessing.Process(target=work, args=(names[k::a.procs], k, body)) for k in range(a.procs)]
for p in procs:
    p.start()
for p in procs:
    p.join()
    assert p.exitcode == 0, f"a floor worker failed: {p.exitcode}"
wall = time.monotonic() - t0
after = resource.getrusage(resource.RUSAGE_CHILDREN)
n = len(names)
assert not os.listdir(os.path.join(a.maildir, "new")), "messages left in new/"
replies = [e for e in os.scandir(a.outbox) if e.name.endswith(".eml")]
assert len(replies) == 2 * n and all(e.stat().st_size == len(body) for e in replies), "replies missing or short"
res = {
    "messages": n,
    "procs": a.procs,
    "reply_bytes": len(body),
    "wall_s": wall,
    "msg_per_s": n / wall,
    "sys_ms_per_msg": 1000 * (after.ru_stime - before.ru_stime) / n,
    "user_ms_per_msg": 1000 * (after.ru_utime - before.ru_utime) / n,
}
print(json.dumps(res))
if a.out:
    with open(a.out, "w") as f:
        json.dump(res, f, indent=1)
