#!/usr/bin/env python3
"""Prints the longest functions, the largest files and the import cycles
between the modules of a Rust source tree (default src/), as a newcomer would
find them: `python3 scripts/code-shape.py [DIR]`, TOP=N for N rows. A
function runs from its `fn` line to the `}` at the same indentation
(rustfmt's layout); a module uses another when it names it with a `crate::`,
`super::` or `self::` path outside its `#[cfg(test)] mod tests`. Reads files
only."""
import os, re, sys, itertools
root = sys.argv[1] if len(sys.argv) > 1 else "src"
FN = re.compile(r'^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+(\w+)')
funcs, files = [], []
def modpath(p):
    rel = os.path.relpath(p, root)[:-3]
    parts = rel.split(os.sep)
    if parts[-1] in ("mod", "lib", "main"): parts = parts[:-1]
    return "::".join(parts)
mods = {}
for d, _, fs in os.walk(root):
    for f in fs:
        if not f.endswith(".rs"): continue
        p = os.path.join(d, f)
        lines = open(p, encoding="utf-8").read().split("\n")
        files.append((len(lines), p))
        mods[modpath(p)] = (p, lines)
        in_tests = False
        for i, l in enumerate(lines):
            m = FN.match(l)
            if not m or l.rstrip().endswith(";"): continue
            ind = m.group(1)
            for j in range(i, len(lines)):
                if lines[j] == ind + "}" or (j == i and l.rstrip().endswith("}")):
                    funcs.append((j - i + 1, f"{p}:{i+1} {m.group(2)}"))
                    break
# A module's uses, by module path (crate::a::b -> longest known prefix).
def resolve(path, here):
    parts = path.split("::")
    if parts[0] == "crate": parts = parts[1:]
    elif parts[0] == "super": 
        base = here.split("::")[:-1]
        while parts and parts[0] == "super":
            parts = parts[1:]; base = base[:-1] if parts and parts[0]=="super" else base
        parts = base + parts
    elif parts[0] == "self": parts = here.split("::") + parts[1:]
    else: return None
    for k in range(len(parts), 0, -1):
        cand = "::".join(parts[:k])
        if cand in mods: return cand
    return None
USE = re.compile(r'\b((?:crate|super|self)(?:::\w+)+)')
BRACE = re.compile(r'\buse\s+((?:crate|super|self)(?:::\w+)*)::\{([^;]*)\}', re.S)
edges = {}
for m, (p, lines) in mods.items():
    text = "\n".join(l for l in lines if not l.strip().startswith("//"))
    # drop #[cfg(test)] mod tests { ... } tail
    t = text.split("#[cfg(test)]\nmod tests")[0]
    deps = set()
    for u in USE.findall(t):
        r = resolve(u, m)
        if r: deps.add(r)
    for base, inner in BRACE.findall(t):
        for item in re.split(r'[,\s{}]+', inner):
            if not item or item in ("self",): continue
            r = resolve(base + "::" + item.split("::")[0], m)
            if r: deps.add(r)
    edges[m] = {d for d in deps if d != m and not d.startswith(m + "::") and not m.startswith(d + "::") and d != ""}
# cycles between two modules (pairs), and longer ones by SCC
def sccs(g):
    idx, low, st, on, out, c = {}, {}, [], set(), [], [0]
    def visit(v):
        idx[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
        for w in g.get(v, ()):
            if w not in idx: visit(w); low[v] = min(low[v], low[w])
            elif w in on: low[v] = min(low[v], idx[w])
        if low[v] == idx[v]:
            comp = []
            while True:
                w = st.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in g:
        if v not in idx: visit(v)
    return out
top = int(os.environ.get("TOP", "10"))
print(f"## The {top} longest functions")
for n, w in sorted(funcs, reverse=True)[:top]: print(f"{n:5} {w}")
print(f"## The {top} largest files")
for n, p in sorted(files, reverse=True)[:top]: print(f"{n:5} {p}")
pairs = sorted({tuple(sorted((a, b))) for a in edges for b in edges[a] if a in edges.get(b, ())})
print(f"## Import cycles between two modules: {len(pairs)}")
for a, b in pairs: print(f"  {a} <-> {b}")
big = sccs(edges)
print(f"## Strongly connected groups of modules: {len(big)}")
for comp in big: print("  " + ", ".join(comp))
