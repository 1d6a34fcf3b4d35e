"""Pattern databases (issue 13): writes experiments/pdb.md.

1. Korf's first ten 15-puzzle instances (../shared/dev-puzzles/korf_first10.txt):
   IDA* with Manhattan plus linear conflict against IDA* with the automatic
   6-6-3 additive pattern databases (built once, then read from the cache).
2. Block puzzles: positions examined by BFS, A* h0 and A* pdb (automatic
   patterns), and the optimum each returned.

Run after `cargo build --release --bins`:
    python3 experiments/pdb.py [--korf N] [--cache DIR]
Times are wall-clock on whatever else the machine is doing: indicative only.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, SOLVER, run_json  # noqa: E402

KORF = os.path.join(ROOT, "..", "shared", "dev-puzzles", "korf_first10.txt")
BLOCKS = ["puzzles/klotski/classic.txt", "puzzles/special/fig7_3b_sliders.txt"]


def korf_rows(count, cache):
    """One row per instance: optimum, then nodes and seconds for each heuristic."""
    lines = [l for l in open(KORF).read().splitlines() if l.strip()][:count]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for n, line in enumerate(lines, 1):
            paths.append(os.path.join(tmp, f"korf{n}.txt"))
            with open(paths[-1], "w") as f:
                f.write(line + "\n")
        # Every instance has the same goal, so the first one's tables serve all.
        started = time.time()
        built = subprocess.run([SOLVER, "pdb", "build", paths[0], "--from", "tiles",
                                "--pdb-cache", cache], capture_output=True, text=True, cwd=ROOT)
        build_s = time.time() - started
        for n, (path, line) in enumerate(zip(paths, lines), 1):
            row = {"n": n, "optimum": int(line.split()[0])}
            for h in ["manhattan", "pdb"]:
                r = run_json([SOLVER, "solve", path, "--from", "tiles", "--algorithm", "ida",
                              "--heuristic", h, "--pdb-cache", cache, "--json", "--quiet"])
                row[h] = (r["steps"], r["positions_examined"], r["elapsed_ms"] / 1000) if r else None
            rows.append(row)
            print(f"korf {n}: {row}", file=sys.stderr)
    return rows, build_s, built.stdout


def block_rows(cache):
    rows = []
    for p in BLOCKS:
        row = {"puzzle": p}
        for name, args in [("bfs", []), ("h0", ["--algorithm", "astar", "--heuristic", "h0"]),
                           ("pdb", ["--algorithm", "astar", "--heuristic", "pdb",
                                    "--pdb-cache", cache])]:
            r = run_json([SOLVER, "solve", p, "--json", "--quiet"] + args)
            row[name] = (r["steps"], r["positions_examined"]) if r else None
        rows.append(row)
        print(f"{p}: {row}", file=sys.stderr)
    return rows


def cell(x, i):
    return "-" if x is None else f"{x[i]:,}" if isinstance(x[i], int) else f"{x[i]:.1f}"


def write(korf, build_s, build_out, blocks, out):
    md = ["# Pattern databases (issue 13)", "",
          "Produced by `python3 experiments/pdb.py` (release build; the machine was shared",
          "with other jobs, so the times are indicative only).", "",
          "## Korf's 15-puzzle instances: IDA*, Manhattan + linear conflict vs 6-6-3 PDBs", "",
          f"Building or reading the tables (`solver pdb build`): {build_s:.0f} s wall.", "",
          "```", build_out.strip(), "```", "",
          "| # | optimum | steps (mlc) | nodes (mlc) | s (mlc) | steps (pdb) | nodes (pdb) | s (pdb) | node ratio |",
          "|---|---|---|---|---|---|---|---|---|"]
    for r in korf:
        m, p = r["manhattan"], r["pdb"]
        ratio = f"{m[1] / p[1]:.1f}" if m and p and p[1] else "-"
        md.append(f"| {r['n']} | {r['optimum']} | {cell(m, 0)} | {cell(m, 1)} | {cell(m, 2)} "
                  f"| {cell(p, 0)} | {cell(p, 1)} | {cell(p, 2)} | {ratio} |")
    md += ["", "## Block puzzles: positions examined (A* with automatic patterns)", "",
           "| puzzle | optimum (BFS) | BFS | A* h0 | A* pdb | steps (pdb) |", "|---|---|---|---|---|---|"]
    for r in blocks:
        md.append(f"| {r['puzzle']} | {cell(r['bfs'], 0)} | {cell(r['bfs'], 1)} | {cell(r['h0'], 1)} "
                  f"| {cell(r['pdb'], 1)} | {cell(r['pdb'], 0)} |")
    md += ["", "## Closing note", ""] + closing_note(korf, blocks)
    with open(out, "w") as f:
        f.write("\n".join(md) + "\n")


def closing_note(korf, blocks):
    """The figures the table shows, summed, and what they do not show."""
    done = [r for r in korf if r["manhattan"] and r["pdb"]]
    m = sum(r["manhattan"][1] for r in done)
    p = sum(r["pdb"][1] for r in done)
    ms = sum(r["manhattan"][2] for r in done)
    ps = sum(r["pdb"][2] for r in done)
    optimal = all(r["pdb"][0] == r["optimum"] for r in done)
    lines = [
        f"- Korf's instances run here: {len(done)}; IDA* with the PDBs returned the published "
        f"optimum on {'every one' if optimal else 'NOT every one'}.",
        f"- Nodes: {m:,} with Manhattan + linear conflict, {p:,} with the 6-6-3 PDBs "
        f"({m / p:.1f}x fewer); time {ms:.0f} s against {ps:.0f} s (the PDB time includes "
        "reading 115 MB of tables per run, and a PDB node costs three rank computations).",
        "- Short of the issue's target (100x fewer nodes than Manhattan + linear conflict, "
        "Korf's 100 in 60 s): the partition is the tiles in goal order without reflection "
        "lookups, and the project's linear conflict is already strong.",
    ]
    for r in blocks:
        if r["bfs"] and r["pdb"]:
            lines.append(f"- {r['puzzle']}: A* pdb examined {r['pdb'][1]:,} positions against "
                         f"{r['bfs'][1]:,} for BFS, same optimum ({r['pdb'][0]}); with the default "
                         "512M every block fits one table, so the estimate is exact and the "
                         "table's backward BFS does the work BFS would.")
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--korf", type=int, default=10, help="how many of Korf's instances")
    ap.add_argument("--cache", default=os.path.join(ROOT, "target", "pdb-cache"))
    ap.add_argument("--redraw", metavar="JSON", help="rewrite pdb.md from a saved run's JSON")
    a = ap.parse_args()
    out = os.path.join(ROOT, "experiments", "pdb.md")
    if a.redraw:
        saved = json.load(open(a.redraw))
        write(saved["korf"], saved["build_s"], saved["build_out"], saved["blocks"], out)
        return
    korf, build_s, build_out = korf_rows(a.korf, a.cache)
    blocks = block_rows(a.cache)
    write(korf, build_s, build_out, blocks, out)
    saved = {"korf": korf, "blocks": blocks, "build_s": build_s, "build_out": build_out}
    with open(os.path.join(ROOT, "experiments", "results", "pdb.json"), "w") as f:
        json.dump(saved, f)


if __name__ == "__main__":
    main()
