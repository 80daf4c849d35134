# benches/harness/table.py — prints the Markdown table of benches/run.sh from the JSON
# results in a folder (pipeline, servers, daemon, burst, scale, engine.txt): wildt,
# baseline, ratio, target, met? A stage not run is listed as not run. Does IO: reads files.
import json
import os
import re
import sys

d = sys.argv[1]


def load(name):
    p = os.path.join(d, name)
    if not os.path.exists(p):
        return None
    with open(p) as f:
        return json.load(f) if ".json" in name else f.read()


rows = []


def row(what, w, base, ratio, target, met):
    rows.append((what, w, base, ratio, target, "yes" if met else "**no**" if met is not None else "—"))


def f(x, nd=0):
    return f"{x:,.{nd}f}"


def not_run(stage, *measures):
    for m in measures:
        row(f"{m} ({stage}: not run)", "", "", "", "", None)


p = load("pipeline.json")
if p:
    w, bl = p["wildt"], p["baseline"]
    r = w["msg_per_s"] / bl["msg_per_s"]
    row(f"Pipeline, {p['messages']:,} msgs / {p['games']:,} games: msg/s (wall)", f(w["msg_per_s"]),
        f(bl["msg_per_s"]), f"{r:.1f}×", "≥ 20× baseline", r >= 20)
    row("Pipeline: CPU ms per message (user + sys)", f(w["cpu_ms_per_msg"], 3), f(bl["cpu_ms_per_msg"], 3),
        f"1/{bl['cpu_ms_per_msg'] / w['cpu_ms_per_msg']:.1f}", "≤ 0.15", w["cpu_ms_per_msg"] <= 0.15)
    row("Pipeline: peak RSS (MiB)", f(w["peak_rss_kib"] / 1024, 1), f(bl["peak_rss_kib"] / 1024, 1),
        f"{w['peak_rss_kib'] / bl['peak_rss_kib']:.2f}×", "", None)
    for fl in p.get("floor", []):
        # What the kernel must do for these messages whatever the program
        # (io_floor.py): a target below it cannot be met by any referee.
        procs = f"{fl['procs']} process" + ("es" if fl["procs"] > 1 else "")
        row(f"Pipeline floor, file and commit operations alone ({procs}, replies of {f(fl['reply_bytes'])} B):"
            f" msg/s; kernel (user) CPU ms per message",
            f"{f(fl['msg_per_s'])}; {fl['sys_ms_per_msg']:.3f} ({fl['user_ms_per_msg']:.3f})", "",
            f"{fl['msg_per_s'] / bl['msg_per_s']:.1f}×", "", None)
else:
    not_run("pipeline", "Pipeline ≥ 20× baseline", "Pipeline CPU ≤ 0.15 ms per message")
s = load("servers.json")
if s:
    w, bl, c = s["wildt"], s["baseline"], s["ceiling"]
    row(f"Real servers, {s['messages']:,} moves / {s['games']} games: msg/s end to end", f(w["msg_per_s"]),
        f(bl["msg_per_s"]), f"{w['msg_per_s'] / bl['msg_per_s']:.1f}×", "", None)
    def spread(key):
        """` (range lo–hi % over N pairs)` when the stage paired several runs."""
        lo_hi = s.get(f"{key}_range")
        return f" (pairs {lo_hi[0]:.0f}–{lo_hi[1]:.0f} %, {len(s['runs'])} runs)" if lo_hi else ""

    row(f"Real servers: % of Postfix ceiling ({f(c['mails_per_s'])} mails/s = {f(c['msg_per_s'])} moves/s)",
        f"{s['wildt_pct_of_ceiling']:.0f} %{spread('wildt_pct_of_ceiling')}", f"{s['baseline_pct_of_ceiling']:.0f} %",
        "", "≥ 90 % (median pair)", s["wildt_pct_of_ceiling"] >= 90)
    if "ceiling_reply_size" in s:
        cr = s["ceiling_reply_size"]
        row(f"Real servers: % of Postfix ceiling with mails of wildt's reply size, {f(cr['size'])} B "
            f"({f(cr['mails_per_s'])} mails/s = {f(cr['msg_per_s'])} moves/s)",
            f"{s['wildt_pct_of_ceiling_reply_size']:.0f} %{spread('wildt_pct_of_ceiling_reply_size')}", "", "",
            "≥ 90 % (median pair)",
            s["wildt_pct_of_ceiling_reply_size"] >= 90)
    r = bl["cpu_ms_per_msg"] / w["cpu_ms_per_msg"]
    row("Real servers: CPU ms per message", f(w["cpu_ms_per_msg"], 3), f(bl["cpu_ms_per_msg"], 3), f"1/{r:.1f}",
        "", None)
else:
    not_run("servers", "Real servers ≥ 90 % of the Postfix ceiling")
h = load("servers-held.json")
if h:
    # The same runs and ceilings with Postfix holding what it accepts until
    # each measurement ends (bench_servers.py --hold): none of them shares
    # the two cores with Dovecot's deliveries.
    for key, ceil, what in (("wildt_pct_of_ceiling", "ceiling", "1,500 B"),
                            ("wildt_pct_of_ceiling_reply_size", "ceiling_reply_size", "wildt's reply size")):
        if key in h:
            c, lo_hi = h[ceil], h[f"{key}_range"]
            row(f"Real servers, deliveries held until each measurement ends: % of Postfix ceiling with mails of "
                f"{what} ({f(c['mails_per_s'])} mails/s = {f(c['msg_per_s'])} moves/s; wildt "
                f"{f(h['wildt']['msg_per_s'])} moves/s)",
                f"{h[key]:.0f} % (pairs {lo_hi[0]:.0f}–{lo_hi[1]:.0f} %, {len(h['runs'])} runs)", "", "",
                "≥ 90 % (median pair)", h[key] >= 90)
dm = load("daemon.json") or load("daemon.json.footprint")
if dm and "wildt" in dm:
    w, bl = dm["wildt"], dm.get("baseline")
    row(f"Latency SMTP→confirmation, {w['moves']} moves: p50 ms", f(w["p50_ms"]),
        f(bl["p50_ms"]) + f" (polls {bl['poll_s']} s)" if bl else "—",
        f"{bl['p50_ms'] / w['p50_ms']:.1f}× faster" if bl else "", "", None)
    row("Latency: p99 ms", f(w["p99_ms"]), f(bl["p99_ms"]) if bl else "—",
        f"{bl['p99_ms'] / w['p99_ms']:.1f}× faster" if bl else "", "< 1,000", w["p99_ms"] < 1000)
else:
    not_run("daemon", "Latency p99 < 1,000 ms under IDLE")
bu = load("burst.json")
unpaced = load("burst-unpaced.json")
if bu:
    paced = f", [outbox] send_rate = {bu['send_rate']}" if bu.get("send_rate") else ""
    row(f"Latency while a burst of {bu['burst']:,} moves is handled{paced}, {bu['probes']} probe moves: "
        "p50 / p99 / max ms",
        f"{f(bu['p50_ms'])} / {f(bu['p99_ms'])} / {f(bu['max_ms'])}", "", "", "p99 < 1,000", bu["p99_ms"] < 1000)
    if unpaced:
        row("The same burst without send_rate (the backlog waits in Postfix's queue): p50 / p99 / max ms; "
            "all answered, s",
            f"{f(unpaced['p50_ms'])} / {f(unpaced['p99_ms'])} / {f(unpaced['max_ms'])}; "
            f"{unpaced['burst_answered_s']:.1f}", "", "", "", None)
    if bu.get("wildt_p99_ms") is not None:
        row("Burst probes, wildt's part: in the referee's INBOX → confirmation handed to Postfix, p50 / p99 ms",
            f"{f(bu['wildt_p50_ms'])} / {f(bu['wildt_p99_ms'])}", "", "", "p99 < 1,000", bu["wildt_p99_ms"] < 1000)
        row("Burst probes: submission → move recorded / → confirmation handed to Postfix, p99 ms; "
            "Postfix delivering the probe, p99 ms",
            f"{f(bu['decided_p99_ms'])} / {f(bu['handed_p99_ms'])}; {f(bu['inbound_p99_ms'])}", "", "", "", None)
    if bu.get("burst_sent_s"):
        row("Burst, s from the first APPEND: APPENDs done / burst decided / its replies all handed to Postfix",
            f"{bu['append_s']:.1f} / {bu['burst_decided_s']:.1f} / {bu['burst_sent_s']:.1f}", "",
            f"{bu['burst'] / bu['burst_sent_s']:.0f} moves/s", "", None)
    row("Burst: all of it answered, the probes' too (checked after the last probe), s from the first APPEND",
        f(bu["burst_answered_s"], 1), "", "", "", None)
else:
    not_run("burst", "Latency p99 < 1,000 ms during a 1,000-move burst")
if dm:
    row("Idle RSS (MiB, VmRSS)", f(dm["idle_rss_kib"] / 1024, 1), "", "", "< 20", dm["idle_rss_kib"] < 20 * 1024)
    if "load_rss_kib" in dm:
        row("RSS after the latency load (MiB, VmRSS / VmHWM)",
            f"{dm['load_rss_kib'] / 1024:.1f} / {dm['load_hwm_kib'] / 1024:.1f}", "", "", "", None)
    row(f"Idle CPU over {dm['idle_secs']:.0f} s", f"{dm['idle_cpu_pct']:.3f} %", "", "", "< 0.1 %",
        dm["idle_cpu_pct"] < 0.1)
    row("Spawn → READY=1 (ms)", f(dm["ready_ms"]), "", "", "≤ 300", dm["ready_ms"] <= 300)
def scale_rows(sc, how):
    """The ply rows of a scale run; `how` names how the rounds were run."""
    lo, hi = sc["ply_low"], sc["ply_high"]
    row(f"Scale{how}: ms per move at ply 1 → ply {sc['ply']} ({sc['games']} games; "
        f"CPU {lo['cpu_ms_per_move']:.3f} → {hi['cpu_ms_per_move']:.3f})",
        f"{lo['ms_per_move']:.3f} → {hi['ms_per_move']:.3f}", "", f"{sc['ply_ratio']:.2f}×", "within 20 %",
        sc["ply_ratio"] <= 1.2)
    if "ply_low_aged" in sc:
        aged = sc["ply_low_aged"]
        row(f"Scale{how}: ms per move at ply 1 in new games of the aged DB, made one after the other → ply "
            f"{sc['ply']} (CPU {aged['cpu_ms_per_move']:.3f} → {hi['cpu_ms_per_move']:.3f})",
            f"{aged['ms_per_move']:.3f} → {hi['ms_per_move']:.3f}", "", f"{sc['ply_ratio_aged']:.2f}×", "", None)
    if "ply_low_spread" in sc:
        spread = sc["ply_low_spread"]
        row(f"Scale{how}: ms per move at ply 5 in new games spread through the aged DB (every {sc['spread']}th, "
            f"as spread as the long games) → ply {sc['ply']} "
            f"(CPU {spread['cpu_ms_per_move']:.3f} → {hi['cpu_ms_per_move']:.3f})",
            f"{spread['ms_per_move']:.3f} → {hi['ms_per_move']:.3f}", "", f"{sc['ply_ratio_spread']:.2f}×",
            "within 20 %", sc["ply_ratio_spread"] <= 1.2)


sc = load("scale.json")
if sc:
    scale_rows(sc, "")
    lo, big = sc["ply_low"], sc["db_big"]
    row(f"Scale: ms per move, {sc['games']} → {sc['big']:,} games in the DB",
        f"{lo['ms_per_move']:.3f} → {big['ms_per_move']:.3f}", "", f"{sc['db_ratio']:.2f}×", "within 20 %",
        sc["db_ratio"] <= 1.2)
else:
    not_run("scale", "Per-move cost at ply 300 within 20 % of ply 1")
sd = load("scale-daemon.json")
if sd:
    scale_rows(sd, ", one running daemon")
elif sc:
    not_run("scale --daemon", "Per-move cost at ply 300 within 20 % of ply 1, in a running daemon")
e = load("engine.txt")
if e:
    pat = r"^(\S+/[^\n]+?)\s*\n\s*time:\s+\[\S+ \S+ (\S+ \S+) \S+ \S+\]\s*\n\s*thrpt:\s+\[\S+ \S+ (\S+) (\S+)"
    scale = {"elem/s": 1, "Kelem/s": 1e3, "Melem/s": 1e6, "Gelem/s": 1e9}
    for name, t, v, unit in re.findall(pat, e, re.M):
        per = 1e6 / (float(v) * scale[unit])
        row(f"Core (criterion): {name.strip()}", f"{per:.2f} µs per unit ({t} per iteration)", "", "", "", None)

print("| measure | wildt | baseline | ratio | target | met? |")
print("| --- | --- | --- | --- | --- | --- |")
for r in rows:
    print("| " + " | ".join(r) + " |")
fs = load("fs.json")
if fs:
    print(f"\nThe stages worked on: {fs['work']}.")
