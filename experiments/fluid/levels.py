#!/usr/bin/env python3
"""`solver solve --algorithm fluid` on every GNOME Klotski level with units
(`fluid_units` of `solver features` at least 2), under two settings: `h0`
weight 5 and `path` weight 3 (the reasoner's general fluid setting); and
`--algorithm bfws` on `path` (best-first width search over the same
abstraction, the reasoner's last general setting). Each
run has a time limit (LIMIT seconds, default 60) and a memory limit (8G);
every solution is replayed by `solver verify`. Writes experiments/fluid.md
and keeps the raw results in experiments/results/fluid.json (resumable:
runs already stored are not repeated; `--redraw` only rewrites the page).

Usage: python3 experiments/fluid/levels.py [--redraw]
"""
import os
import platform
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from common import ROOT, SOLVER, gnome_levels, load_results, run_json, save_results  # noqa: E402

# (algorithm, heuristic, weight or None, the column's title); a run's key
# is LEVEL/heuristic-wWEIGHT for fluid (as the first runs stored them),
# LEVEL/ALGORITHM-heuristic otherwise.
SETTINGS = [
    ("fluid", "h0", "5", "h0, weight 5"),
    ("fluid", "path", "3", "path, weight 3"),
    ("bfws", "path", None, "bfws, path"),
]


def key_of(level, setting):
    algorithm, heuristic, weight, _ = setting
    if algorithm == "fluid":
        return f"{level}/{heuristic}-w{weight}"
    return f"{level}/{algorithm}-{heuristic}"
LIMIT = os.environ.get("LIMIT", "60")
RESULTS = os.path.join(ROOT, "experiments", "results", "fluid.json")
PAGE = os.path.join(ROOT, "experiments", "fluid.md")


def run(level, setting, tmp):
    """One solve; its report with `verified` added (None when it failed)."""
    algorithm, heuristic, weight, _ = setting
    sol = os.path.join(tmp, "fluid.sol")
    weighted = ["--weight", weight] if weight else []
    r = run_json([SOLVER, "solve", level, "--json", "--quiet", "--algorithm", algorithm,
                  "--heuristic", heuristic, *weighted, "--time-limit", LIMIT,
                  "--max-memory", "8G", "--solution", sol], timeout=float(LIMIT) + 120)
    if r is None:
        return None
    if r["status"] == "solved":
        v = subprocess.run([SOLVER, "verify", level, sol], capture_output=True, text=True)
        r["verified"] = v.returncode == 0 and v.stdout.startswith("valid")
    return r


def measure(results):
    with tempfile.TemporaryDirectory(prefix="fluid-levels-") as tmp:
        for level in gnome_levels():
            f = run_json([SOLVER, "features", level, "--json"], timeout=120)
            units = f.get("fluid_units", 0) if f else 0
            if units < 2:
                continue
            for setting in SETTINGS:
                key = key_of(os.path.basename(level), setting)
                if key in results:
                    continue
                r = run(level, setting, tmp)
                results[key] = {"units": units, "report": r, "limit_s": LIMIT}
                save_results(RESULTS, results)
                print(key, r and r["status"], r and r.get("steps"), flush=True)


def cell(r):
    if r is None:
        return "failed"
    rep = r["report"]
    if rep is None:
        return "failed"
    secs = rep["elapsed_ms"] / 1000
    states = f"{rep['positions_examined']:,}"
    # A run re-made with another LIMIT says so.
    other = f" (time limit {r['limit_s']} s)" if r.get("limit_s", LIMIT) != LIMIT else ""
    if rep["status"] == "solved":
        ok = "" if rep.get("verified") else " (NOT verified)"
        return f"**{rep['steps']:,}** steps{ok}, {states} states, {secs:.1f} s{other}"
    return f"{rep['status']}, distance {rep['best_distance']} of {rep['start_distance']}, {states} states, {secs:.0f} s{other}"


def draw(results):
    levels = sorted({k.split("/")[0] for k in results})
    lines = [
        "# The fluid search on the GNOME levels",
        "",
        "Produced by `python3 experiments/fluid/levels.py` (raw results in `results/fluid.json`): "
        "`solver solve LEVEL --algorithm fluid` (and `--algorithm bfws`) on every GNOME Klotski level whose `solver features` "
        "reports at least 2 `fluid_units` (the most numerous type of freely moving 1x1 blocks), with "
        f"a time limit of {LIMIT} s and `--max-memory 8G`; every solution replayed by `solver verify`. "
        "States are abstract states (the other blocks' places and the units per region), not positions. "
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()}.",
        "",
        "| level | units | " + " | ".join(s[3] for s in SETTINGS) + " |",
        "|---|---|" + "---|" * len(SETTINGS),
    ]
    solved = {s: 0 for s in SETTINGS}
    for level in levels:
        row = [results.get(key_of(level, s)) for s in SETTINGS]
        units = next(r["units"] for r in row if r)
        for (s, r) in zip(SETTINGS, row):
            if r and r["report"] and r["report"]["status"] == "solved" and r["report"].get("verified"):
                solved[s] += 1
        lines.append(f"| {level[:-4]} | {units} | " + " | ".join(cell(r) for r in row) + " |")
    lines += ["", f"{len(levels)} levels with units; solved and verified: "
              + ", ".join(f"{s[3]}: {n}" for s, n in solved.items()) + "."]
    with open(PAGE, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    results = load_results(RESULTS)
    if "--redraw" not in sys.argv:
        measure(results)
    draw(results)
    print("written", os.path.relpath(PAGE, ROOT))


if __name__ == "__main__":
    main()
