#!/usr/bin/env python3
"""Breadth-first search on Korf's first 15-puzzle instance at 5M positions
examined (issue 47's target: 6M positions a second on one thread, 1.8x that
on two, at most 20 bytes per examined position, the process included), for
experiments/bench.md.

Usage: experiments/korf_bfs.py [--rounds N] [SOLVER ...]
(default: target/release/solver). With several solvers (a build of an
earlier commit first, say) the runs alternate between them, round by
round, so that a shared machine's slow spells fall on all alike. Prints a
markdown table: per solver and thread count the median and best wall time
(process start included), the solver's own positions a second (median),
CPU seconds (median), peak resident memory and bytes per examined
position, and the two-thread speed-up by medians.
"""

import argparse
import json
import resource
import statistics
import subprocess
import time

PUZZLE = "puzzles/tiles/korf_01.txt"
EXAMINED = 5_000_000


def run(solver, threads):
    """One run: wall s, CPU s, peak RSS bytes, the solver's JSON."""
    args = [solver, "solve", PUZZLE, "--algorithm", "bfs", "--encoding", "packed",
            "--max-positions", str(EXAMINED), "--threads", str(threads), "--json"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.time()
    # /usr/bin/time measures this run's own peak (getrusage's is the
    # largest child's so far).
    out = subprocess.run(["/usr/bin/time", "-f", "%M", *args], capture_output=True, text=True)
    wall = time.time() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rss = int(out.stderr.strip().split()[-1]) * 1024
    report = json.loads(out.stdout)
    assert report["positions_examined"] == EXAMINED, report
    return wall, cpu, rss, report


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("solvers", nargs="*", default=["target/release/solver"])
    a = ap.parse_args()
    runs = {(s, t): [] for s in a.solvers for t in (1, 2)}
    for _ in range(a.rounds):
        for s in a.solvers:
            for t in (1, 2):
                runs[(s, t)].append(run(s, t))
    print("| solver | threads | wall median (best) | positions/s (solver's, median) "
          "| CPU s | peak RSS | bytes per examined | two threads |")
    print("|---|---|---|---|---|---|---|---|")
    for s in a.solvers:
        one = statistics.median(r[0] for r in runs[(s, 1)])
        for t in (1, 2):
            rs = runs[(s, t)]
            wall = statistics.median(r[0] for r in rs)
            best = min(r[0] for r in rs)
            rate = statistics.median(
                r[3]["positions_examined"] / max(r[3]["elapsed_ms"], 1) * 1000 for r in rs)
            cpu = statistics.median(r[1] for r in rs)
            rss = max(r[2] for r in rs)
            ratio = f"{one / wall:.2f}x" if t == 2 else ""
            print(f"| {s} | {t} | {wall:.3f} ({best:.3f}) s | {rate / 1e6:.2f}M | {cpu:.2f} "
                  f"| {rss / 1e6:.1f} MB | {rss / EXAMINED:.1f} | {ratio} |")


if __name__ == "__main__":
    main()
