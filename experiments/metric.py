#!/usr/bin/env python3
"""The reasoner answering in moves (issue 51): `reasoner solve --metric moves`
with the bundled seed case base on the 24 Layton puzzles (lumi-a's minima)
and on Rush Hour boards (Fogleman's optima; the shared development sample,
one native file per line made by `solver import --from rush --index N`).
Each final answer is checked against the published optimum in moves, and
its steps and moves against `solver verify`'s replay.

    python3 experiments/metric.py            # writes experiments/metric.md
    OPTIMAL=1 python3 experiments/metric.py  # adds --optimal

RUSH (default /work/shared/dev-puzzles/rushhour_dev.txt next to the
repository) names the Rush Hour list.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import REASONER, ROOT, SOLVER  # noqa: E402

RUSH = os.environ.get("RUSH") or os.path.join(ROOT, "..", "shared", "dev-puzzles", "rushhour_dev.txt")
OPTIMAL = os.environ.get("OPTIMAL") == "1"
CASEBASE = os.path.join(ROOT, "casebase", "seed.toml")


def layton():
    """(label, file, optimum in moves) for each Layton puzzle."""
    d = os.path.join(ROOT, "puzzles", "layton")
    out = []
    for f in sorted(x for x in os.listdir(d) if x.endswith(".txt")):
        with open(os.path.join(d, f)) as text:
            best = next(int(l.split()[2]) for l in text if l.startswith("% optimum:"))
        out.append((f[:-4], os.path.join(d, f), best))
    return out


def rush(scratch):
    """(label, file, optimum) for each line of the Rush Hour list, converted."""
    out = []
    with open(RUSH) as f:
        lines = [l for l in f if l.strip()]
    for n, line in enumerate(lines, 1):
        path = os.path.join(scratch, f"rush_{n:03}.txt")
        with open(path, "w") as native:
            subprocess.run([SOLVER, "import", RUSH, "--from", "rush", "--index", str(n)],
                           stdout=native, check=True, cwd=ROOT)
        out.append((f"rush line {n}", path, int(line.split()[0])))
    return out


def verified(puzzle, solution):
    """(steps, moves) of `solver verify --json`'s replay of a solution."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write("\n".join(solution) + "\n")
        f.flush()
        out = subprocess.run([SOLVER, "verify", puzzle, f.name, "--json"],
                             capture_output=True, text=True, cwd=ROOT)
    r = json.loads(out.stdout)
    return r.get("steps"), r.get("moves")


def solve(puzzle):
    """One reasoner run: (wall s, report or None)."""
    args = [REASONER, "solve", puzzle, "--casebase", CASEBASE, "--metric", "moves", "--json", "--quiet"]
    if OPTIMAL:
        args.append("--optimal")
    started = time.time()
    out = subprocess.run(args, capture_output=True, text=True, cwd=ROOT)
    try:
        return time.time() - started, json.loads(out.stdout)
    except json.JSONDecodeError:
        return time.time() - started, None


def row(label, puzzle, best):
    """One table row and whether the answer is at the optimum and verified."""
    wall, r = solve(puzzle)
    if r is None or r.get("status") != "solved":
        return f"| {label} | {best} | - | - | {wall:.1f} | no answer | |", False
    steps, moves = verified(puzzle, r["solution"])
    agree = (steps, moves) == (r["steps"], r["moves"])
    good = r["moves"] == best and agree
    proof = {True: "yes", False: "no", None: ""}[r.get("optimal")]
    return (f"| {label} | {best} | {r['moves']} | {r['steps']} | {wall:.1f} | "
            f"{'✓' if r['moves'] == best else '✗'} {'verified' if agree else 'verify disagrees'} | {proof} |"), good


def main():
    lines = ["| puzzle | optimum (moves) | moves | steps | wall s | answer | proven optimal |",
             "|---|---:|---:|---:|---:|---|---|"]
    counts = {}
    with tempfile.TemporaryDirectory() as scratch:
        for family, puzzles in (("layton", layton()), ("rush", rush(scratch))):
            good = total = wall = 0
            started = time.time()
            for label, puzzle, best in puzzles:
                text, ok = row(label, puzzle, best)
                lines.append(text)
                print(text, file=sys.stderr)
                good += ok
                total += 1
            wall = time.time() - started
            counts[family] = (good, total, wall)
    commit = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h"],
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    commit += " with uncommitted changes" if dirty else ""
    flag = " --optimal" if OPTIMAL else ""
    head = [
        "# The reasoner in moves (issue 51)",
        "",
        f"`reasoner solve PUZZLE --casebase casebase/seed.toml --metric moves{flag} --json`, one puzzle at",
        f"a time, commit {commit}, {os.cpu_count()} cores. An answer is ✓ when its moves equal the published",
        "optimum (Layton: lumi-a's `min_moves`; Rush Hour: Fogleman's database) and verified when",
        "`solver verify` replays it to the same steps and moves.",
        "",
        f"Command: `{'OPTIMAL=1 ' if OPTIMAL else ''}python3 experiments/metric.py`",
        "",
    ]
    for family, (good, total, wall) in counts.items():
        head.append(f"- {family}: {good} of {total} at the optimum and verified, {wall:.1f} s wall in all")
    text = "\n".join(head + [""] + lines) + "\n"
    name = "metric-optimal.md" if OPTIMAL else "metric.md"
    with open(os.path.join(ROOT, "experiments", name), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
