#!/usr/bin/env python3
"""Summarises http.sh's CSV: medians per server, file and connections, ratios to nginx and
jwebserver, the issue's goals, and an SVG chart. Usage: http-summary.py CSV SUMMARY.md CHART.svg"""
import csv
import statistics
import sys
from collections import defaultdict

SERVERS = ["nginx", "jwebserver", "threads", "event-loop", "threads+buffered", "event-loop+buffered"]
OURS = ["threads", "event-loop", "threads+buffered", "event-loop+buffered"]
FILES = [("4k.bin", "4 KiB"), ("1m.bin", "1 MiB"), ("64m.bin", "64 MiB")]
CONNECTIONS = [1, 64, 256]
COLOURS = {"nginx": "#4e79a7", "jwebserver": "#9c9c9c", "threads": "#f28e2b", "event-loop": "#59a14f",
           "threads+buffered": "#ffbe7d", "event-loop+buffered": "#8cd17d"}


def load(path):
    runs = defaultdict(list)
    with open(path) as f:
        for row in csv.DictReader(f):
            runs[(row["server"], row["file"], int(row["connections"]))].append(row)
    cells = {}
    for key, rows in runs.items():
        cells[key] = {
            "rps": statistics.median(float(r["requests_per_s"] or 0) for r in rows),
            "gbps": statistics.median(float(r["bytes_per_s"]) / 1e9 for r in rows),
            "p99": statistics.median(float(r["p99_ms"]) for r in rows),
            "errors": sum(int(r["errors"]) + int(r["timeouts"]) + int(r["non2xx"]) for r in rows),
            "runs": len(rows),
        }
    return cells


def metric(file):
    return "rps" if file == "4k.bin" else "gbps"


def ratio(cells, ours, other, file, c):
    a, b = cells.get((ours, file, c)), cells.get((other, file, c))
    if not a or not b or b[metric(file)] == 0:
        return None
    return a[metric(file)] / b[metric(file)]


def fmt_ratio(r):
    return "-" if r is None else f"{r:.2f}x"


def table(cells):
    out = ["| File | Conns | Server | req/s | GB/s | p99 ms | errors + timeouts | vs nginx | vs jwebserver |",
           "|---|---:|---|---:|---:|---:|---:|---:|---:|"]
    for file, label in FILES:
        for c in CONNECTIONS:
            for s in SERVERS:
                m = cells.get((s, file, c))
                if not m:
                    continue
                vs = [fmt_ratio(ratio(cells, s, o, file, c)) if s in OURS else "" for o in ("nginx", "jwebserver")]
                out.append(f"| {label} | {c} | {s} | {m['rps']:,.0f} | {m['gbps']:.2f} | {m['p99']:.1f} | "
                           f"{m['errors']} | {vs[0]} | {vs[1]} |")
    return out


def goals(cells):
    out = ["Goals (ratios of medians; 4 KiB by req/s, larger files by GB/s):", ""]
    for s in OURS:
        for file, label in FILES:
            for c in CONNECTIONS:
                rn = ratio(cells, s, "nginx", file, c)
                rj = ratio(cells, s, "jwebserver", file, c)
                if rn is None:
                    continue
                if file in ("4k.bin", "1m.bin") and c in (64, 256):
                    ok = rn >= 0.95
                    goal = ">= 0.95x nginx"
                else:
                    continue
                out.append(f"- {s}, {label}, {c} conns: {fmt_ratio(rn)} nginx, {fmt_ratio(rj)} jwebserver "
                           f"(goal {goal}): {'met' if ok else 'missed'}")
        errs = sum(cells[(s, f, 256)]["errors"] for f, _ in FILES if (s, f, 256) in cells)
        out.append(f"- {s}, 256 conns, every file: {errs} errors + timeouts (goal 0): {'met' if errs == 0 else 'missed'}")
    return out


def chart(cells, path):
    panel_w, panel_h, top, left, gap = 330, 220, 40, 60, 40
    width = left + 3 * (panel_w + gap)
    height = top + panel_h + 80
    bar = panel_w / (len(CONNECTIONS) * (len(SERVERS) + 1))
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">', f'<rect width="{width}" height="{height}" fill="white"/>']
    for p, (file, label) in enumerate(FILES):
        x0 = left + p * (panel_w + gap)
        key = metric(file)
        values = [cells[(s, file, c)][key] for s in SERVERS for c in CONNECTIONS if (s, file, c) in cells]
        top_value = max(values + [1e-9]) * 1.1
        unit = "req/s" if key == "rps" else "GB/s"
        svg.append(f'<text x="{x0 + panel_w / 2}" y="{top - 20}" text-anchor="middle" font-size="13">'
                   f'{label}: {unit}</text>')
        svg.append(f'<line x1="{x0}" y1="{top + panel_h}" x2="{x0 + panel_w}" y2="{top + panel_h}" stroke="black"/>')
        for t in range(5):
            v = top_value * t / 4
            y = top + panel_h - panel_h * t / 4
            text = f"{v / 1000:.0f}k" if key == "rps" else f"{v:.1f}"
            svg.append(f'<text x="{x0 - 4}" y="{y + 4}" text-anchor="end">{text}</text>')
            svg.append(f'<line x1="{x0}" y1="{y}" x2="{x0 + panel_w}" y2="{y}" stroke="#e0e0e0"/>')
        for g, c in enumerate(CONNECTIONS):
            gx = x0 + g * (len(SERVERS) + 1) * bar + bar / 2
            for i, s in enumerate(SERVERS):
                m = cells.get((s, file, c))
                if not m:
                    continue
                h = panel_h * m[key] / top_value
                svg.append(f'<rect x="{gx + i * bar:.1f}" y="{top + panel_h - h:.1f}" width="{bar - 1:.1f}" '
                           f'height="{h:.1f}" fill="{COLOURS[s]}"/>')
            svg.append(f'<text x="{gx + len(SERVERS) * bar / 2:.1f}" y="{top + panel_h + 14}" '
                       f'text-anchor="middle">{c} conn{"s" if c > 1 else ""}</text>')
    for i, s in enumerate(SERVERS):
        x = left + i * 175
        svg.append(f'<rect x="{x}" y="{height - 30}" width="12" height="12" fill="{COLOURS[s]}"/>')
        svg.append(f'<text x="{x + 16}" y="{height - 20}">{s if s not in OURS else "http-server " + s}</text>')
    svg.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(svg) + "\n")


def main():
    csv_path, summary_path, chart_path = sys.argv[1:4]
    cells = load(csv_path)
    lines = table(cells) + [""] + goals(cells)
    with open(summary_path, "w") as f:
        f.write("\n".join(lines) + "\n")
    chart(cells, chart_path)


if __name__ == "__main__":
    main()
