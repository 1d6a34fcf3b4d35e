#!/usr/bin/env python3
"""The generated benchmark of issue 45: `solver generate` commands with their
seeds, 330 puzzles in 6 families (55 each, in batches of different board
sizes and difficulty targets), written to
experiments/benchmark/puzzles/<family>/<family>-<seed>-<kkkk>.txt.

The generator is deterministic per seed, so the commands below are the
benchmark: `generate` runs them and writes experiments/benchmark/SHA256SUMS
(one `sha256  path` line per puzzle), `check` regenerates into a scratch
folder and compares with that list bit for bit, `list` prints the commands.

The batches' sizes and targets are first guesses to calibrate with
`matrix.py` + `matrix_summary.py` on a sample (target: the single best
setting solves at most 70% within the matrix's position limit, the best of
the grid per puzzle at least 90%); raise a batch's size or --min-length
when too much is solved by one setting, lower it when the grid misses.

Usage: benchmark.py generate|check|list   (SOLVER names another solver binary)"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

from common import ROOT, SOLVER

HERE = os.path.join(ROOT, "experiments", "benchmark")
SUMS = os.path.join(HERE, "SHA256SUMS")

# (family, seed, count, options): one `solver generate` command each. Sizes
# and targets calibrated with matrix.py + matrix_summary.py at the matrix's
# limit of 20,000 positions (experiments/matrix.md): the Klotski-like
# families (klotski, walls, mixed, gnome) at lengths a greedy width search
# (bfws) still settles within the limit, Rush-Hour-like and tile boards
# where it does not apply and A* / BFS / IDA* variants win.
BATCHES = [
    ("klotski", 101, 25, ["--width", "4", "--height", "5", "--spaces", "2", "--min-length", "40"]),
    ("klotski", 102, 30, ["--width", "5", "--height", "5", "--spaces", "2", "--min-length", "50"]),
    ("gnome", 201, 30, ["--width", "5", "--height", "6", "--spaces", "2", "--min-length", "35",
                        "--max-positions-check", "300000"]),
    ("gnome", 202, 25, ["--width", "6", "--height", "6", "--spaces", "2", "--min-length", "35",
                        "--max-positions-check", "300000"]),
    ("rush", 301, 25, ["--width", "6", "--height", "6", "--spaces", "12", "--hardest", "1500"]),
    ("rush", 302, 30, ["--width", "7", "--height", "7", "--spaces", "14", "--min-length", "25"]),
    ("mixed", 401, 30, ["--width", "5", "--height", "5", "--spaces", "2", "--min-length", "35"]),
    ("mixed", 402, 25, ["--width", "6", "--height", "5", "--spaces", "2", "--min-length", "35"]),
    ("tiles", 501, 25, ["--width", "3", "--height", "4", "--spaces", "1", "--min-length", "25",
                        "--max-positions-check", "150000"]),
    ("tiles", 502, 30, ["--width", "4", "--height", "4", "--spaces", "1", "--min-length", "35",
                        "--max-positions-check", "150000"]),
    ("walls", 601, 25, ["--width", "5", "--height", "5", "--spaces", "2", "--min-length", "40"]),
    ("walls", 602, 30, ["--width", "5", "--height", "6", "--spaces", "2", "--min-length", "40"]),
]


def command(family, seed, count, options, root):
    return [SOLVER, "generate", "--family", family, "--seed", str(seed), "--count", str(count),
            *options, "--out-dir", os.path.join(root, family)]


def generate(root):
    """Runs every batch into root/<family>/; the paths written, sorted, relative to root."""
    for family, seed, count, options in BATCHES:
        cmd = command(family, seed, count, options, root)
        print(" ".join(cmd[1:]), file=sys.stderr)
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        if out.returncode != 0:
            sys.exit(f"benchmark.py: {family} seed {seed}: {out.stderr.strip()}")
    return sorted(os.path.relpath(os.path.join(d, f), root)
                  for d, _, files in os.walk(root) for f in files if f.endswith(".txt"))


def sums(root, paths):
    lines = []
    for p in paths:
        with open(os.path.join(root, p), "rb") as f:
            lines.append(f"{hashlib.sha256(f.read()).hexdigest()}  {p}\n")
    return "".join(lines)


def main():
    mode = sys.argv[1] if len(sys.argv) == 2 else None
    if mode == "list":
        for b in BATCHES:
            print(" ".join(command(*b, "experiments/benchmark/puzzles")[1:]))
    elif mode == "generate":
        root = os.path.join(HERE, "puzzles")
        shutil.rmtree(root, ignore_errors=True)
        paths = generate(root)
        with open(SUMS, "w", encoding="utf-8") as f:
            f.write(sums(root, paths))
        print(f"benchmark.py: {len(paths)} puzzles, sums in {os.path.relpath(SUMS, ROOT)}", file=sys.stderr)
    elif mode == "check":
        with tempfile.TemporaryDirectory() as root:
            got = sums(root, generate(root))
        with open(SUMS, encoding="utf-8") as f:
            want = f.read()
        if got != want:
            sys.exit("benchmark.py: the regenerated puzzles differ from SHA256SUMS")
        print("benchmark.py: the regenerated puzzles match SHA256SUMS", file=sys.stderr)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
