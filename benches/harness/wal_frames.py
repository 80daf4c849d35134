# benches/harness/wal_frames.py — which tables the WAL frames of a run were
# for. Reads the output of
#   strace -f -e trace=pwrite64 -s 24 -x -o TRACE wildt serve --once ...
# takes every 24-byte write (a WAL frame's header: its first four bytes are
# the page number, big-endian) and names each page's owner from the
# database's `dbstat` table after the run (pages freed by then, such as a
# sent reply's overflow pages, show as "(free or other)"). Prints frames
# per table, most first. Does IO: reads the two files.
import argparse
import collections
import re
import sqlite3

ap = argparse.ArgumentParser()
ap.add_argument("trace")
ap.add_argument("db")
a = ap.parse_args()

WRITE = re.compile(r'pwrite64\(\d+, "((?:\\x[0-9a-f]{2})+)"\.*, 24, \d+\)')
pages = collections.Counter()
with open(a.trace) as f:
    for line in f:
        m = WRITE.search(line)
        if m:
            header = bytes(int(x, 16) for x in re.findall(r"\\x([0-9a-f]{2})", m.group(1)))
            pages[int.from_bytes(header[:4], "big")] += 1
db = sqlite3.connect(a.db)
owner = {page: name for name, page in db.execute("SELECT name, pageno FROM dbstat")}
by = collections.Counter()
for page, n in pages.items():
    by[owner.get(page, "(free or other)")] += n
print(f"{sum(pages.values())} frames")
for name, n in by.most_common():
    print(f"{n:8d}  {name}")
