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
    with open(out, "w") as f:
        f.write("\n".join(md) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--korf", type=int, default=10, help="how many of Korf's instances")
    ap.add_argument("--cache", default=os.path.join(ROOT, "target", "pdb-cache"))
    a = ap.parse_args()
    korf, build_s, build_out = korf_rows(a.korf, a.cache)
    blocks = block_rows(a.cache)
    write(korf, build_s, build_out, blocks, os.path.join(ROOT, "experiments", "pdb.md"))
    print(json.dumps({"korf": korf, "blocks": blocks}), file=sys.stderr)


if __name__ == "__main__":
    main()
