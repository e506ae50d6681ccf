#!/usr/bin/env python3
"""Summarises http-latency.sh's CSV: per file and connection count, each server's medians over the
rounds beside nginx's, and a verdict for each of our cells. Usage: http-latency-summary.py CSV LATENCY.md

A cell of ours PASSes when, in every round, no request timed out or failed (socket errors and non-2xx
or 3xx responses), when its median p99 is within max(3 x nginx's median p99, 20 ms), and when its
slowest request, over all rounds, took under 1 s; else it FAILs, with the reasons."""
import csv
import statistics
import sys

REFERENCE = "nginx"
P99_FACTOR, P99_FLOOR_MS, SLOWEST_LIMIT_MS = 3.0, 20.0, 1000.0


def load(path):
    cells, servers = {}, []
    with open(path) as f:
        for row in csv.DictReader(f):
            key = (row["file"], int(row["connections"]))
            cells.setdefault(key, {}).setdefault(row["server"], []).append(row)
            if row["server"] not in servers:
                servers.append(row["server"])
    servers.sort(key=lambda s: s != REFERENCE)  # nginx first, the others as they came
    return cells, servers


def stats(rows):
    med = lambda k: statistics.median(float(r[k] or 0) for r in rows)
    return {"rps": med("rps"), "p50": med("p50_ms"), "p99": med("p99_ms"), "max": med("max_ms"),
            "worst": max(float(r["max_ms"] or 0) for r in rows),
            "timeouts": sum(int(r["timeouts"]) for r in rows), "errors": sum(int(r["errors"]) for r in rows),
            "rounds": len(rows)}


def verdict(m, ref):
    limit = max(P99_FACTOR * ref["p99"], P99_FLOOR_MS) if ref else P99_FLOOR_MS
    why = []
    if m["timeouts"]:
        why.append(f"{m['timeouts']} time-outs")
    if m["errors"]:
        why.append(f"{m['errors']} errors")
    if m["p99"] > limit:
        why.append(f"p99 {m['p99']:.1f} > {limit:.1f} ms")
    if m["worst"] >= SLOWEST_LIMIT_MS:
        why.append(f"slowest {m['worst'] / 1000:.2f} s")
    return limit, "PASS" if not why else "FAIL: " + ", ".join(why)


def file_label(name):
    return {"4k.bin": "4 KiB", "1m.bin": "1 MiB", "10000x4k": "10,000 files of 4 KiB"}.get(name, name)


def main():
    csv_path, md_path = sys.argv[1:3]
    cells, servers = load(csv_path)
    out = ["| File | Conns | Server | req/s | x nginx | p50 ms | p99 ms | p99 limit ms | slowest ms (median) "
           "| slowest ms (worst) | time-outs | errors | verdict |",
           "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    passed = {s: [0, 0] for s in servers if s != REFERENCE}
    for key in sorted(cells, key=lambda k: (k[0] != "4k.bin", k[0], k[1])):
        by_server = {s: stats(rows) for s, rows in cells[key].items()}
        ref = by_server.get(REFERENCE)
        for s in servers:
            m = by_server.get(s)
            if not m:
                continue
            if s == REFERENCE:
                limit, v, ratio = "", "(reference)", ""
            else:
                lim, v = verdict(m, ref)
                limit = f"{lim:.1f}"
                ratio = f"{m['rps'] / ref['rps']:.2f}x" if ref and ref["rps"] else "-"
                passed[s][0] += v == "PASS"
                passed[s][1] += 1
            out.append(f"| {file_label(key[0])} | {key[1]} | {s} | {m['rps']:,.0f} | {ratio} | {m['p50']:.2f} | "
                       f"{m['p99']:.2f} | {limit} | {m['max']:.1f} | {m['worst']:.1f} | {m['timeouts']} | "
                       f"{m['errors']} | {v} |")
    rounds = max((len(rows) for c in cells.values() for rows in c.values()), default=0)
    out += ["",
            f"Medians of {rounds} round{'s' if rounds != 1 else ''} (time-outs and errors: summed over the rounds). "
            f"A cell of ours PASSes when no request timed out or failed in any round, its p99 is within "
            f"max({P99_FACTOR:g}x nginx's p99, {P99_FLOOR_MS:g} ms) and its slowest request in any round took under "
            f"{SLOWEST_LIMIT_MS / 1000:g} s. wrk leaves timed-out requests out of its percentiles, so a cell with "
            f"time-outs can show a low p99 and still FAIL.",
            ""]
    out += [f"- {s}: {p} of {n} cells PASS" for s, (p, n) in passed.items()]
    with open(md_path, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
