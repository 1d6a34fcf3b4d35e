#!/usr/bin/env python3
"""What `solver solve` does with no flags, and with `--optimal` (issue 47,
"defaults that pick the fast way"): CPU seconds, peak RSS, the algorithm
and encoding chosen, and whether the answer is at the puzzle's published
optimum, over Layton's 24 puzzles (moves metric, lumi-a's minima) and a few
Klotski levels (steps).

    python3 experiments/defaults.py                 # writes experiments/defaults.md
    BEFORE=/path/to/old/solver python3 experiments/defaults.py

With BEFORE the same runs are made with that binary too (alternately, one
puzzle at a time), so the page shows before and after from one run on one
machine. ROUNDS (default 1) repeats each run and takes the median.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, SOLVER  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "1"))
BEFORE = os.environ.get("BEFORE")
KLOTSKI = ["classic", "century", "pennant", "baltic_sea", "ambush", "fool", "rome"]


def puzzles():
    """(file, metric) pairs: the Layton folder under moves, some Klotski under steps."""
    layton = sorted(f for f in os.listdir(os.path.join(ROOT, "puzzles", "layton")) if f.endswith(".txt"))
    return ([(f"puzzles/layton/{f}", "moves") for f in layton]
            + [(f"puzzles/klotski/{k}.txt", "steps") for k in KLOTSKI])


def optimum(file, metric):
    """The `% optimum:` or `% measured:` length in `metric` of a bundled puzzle, if any."""
    with open(os.path.join(ROOT, file)) as f:
        for line in f:
            if line.startswith(("% optimum:", "% measured:")):
                words = line.replace(",", " ").split()
                for n, unit in zip(words, words[1:]):
                    if n.isdigit() and unit.startswith(metric):
                        return int(n)
    return None


def run(binary, file, metric, flags):
    """One solve under /usr/bin/time: (cpu s, rss MB, result JSON or None)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        cmd = ["/usr/bin/time", "-f", "%U %S %M", "-o", t.name,
               binary, "solve", file, "--metric", metric, "--json", *flags]
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        user, sys_, rss = t.read().split()[-3:]
    try:
        result = json.loads(out.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        result = None
    return float(user) + float(sys_), int(rss) / 1024, result


def measure(binary, file, metric, flags):
    """The median CPU and RSS over ROUNDS runs, and the last result."""
    runs = [run(binary, file, metric, flags) for _ in range(ROUNDS)]
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), runs[-1][2])


def cell(m, metric, best):
    """A table cell: CPU, RSS, algorithm/encoding and the answer's check."""
    cpu, rss, r = m
    if r is None or r.get("status") != "solved":
        return f"{cpu:.2f} s, {rss:.0f} MB, {r and r.get('status')}"
    got = r.get(metric)
    mark = "" if best is None else (" ✓" if got == best else f" ✗ {got}")
    return f"{cpu:.2f} s, {rss:.0f} MB, {r['params']['algorithm']}/{r['encoding']}{mark}"


def main():
    configs = [("default", []), ("--optimal", ["--optimal"])]
    binaries = [("after", SOLVER)] + ([("before", BEFORE)] if BEFORE else [])
    header = ["puzzle", "metric", "optimum"] + [f"{c} ({b})" for c, _ in configs for b, _ in binaries]
    rows, totals = [], {}
    for file, metric in puzzles():
        best = optimum(file, metric)
        row = [os.path.basename(file)[:-4], metric, str(best or "-")]
        for c, flags in configs:
            for b, binary in binaries:
                m = measure(binary, file, metric, flags)
                totals[(c, b)] = totals.get((c, b), 0.0) + m[0]
                row.append(cell(m, metric, best))
        rows.append(row)
        print(" | ".join(row), file=sys.stderr)
    commit = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h"], capture_output=True, text=True).stdout.strip()
    lines = [
        "# Defaults that pick the fast way (issue 47)",
        "",
        "`solver solve PUZZLE` with no flags but the metric, and with `--optimal`: CPU time (user + system),",
        "peak RSS, `algorithm/encoding` chosen, ✓ where the answer is the published optimum (Layton:",
        f"lumi-a's minimum in moves; Klotski: the collection's measured BFS optimum in steps). Commit {commit},",
        f"median of {ROUNDS} run(s); `nproc` = {os.cpu_count()}.",
        "",
        "Command: `" + ("BEFORE=OLD_SOLVER " if BEFORE else "") + "python3 experiments/defaults.py`",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
    ]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    lines += ["", "Total CPU: " + ", ".join(f"{c} ({b}) {t:.1f} s" for (c, b), t in totals.items()), ""]
    with open(os.path.join(ROOT, "experiments", "defaults.md"), "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
