#!/usr/bin/env python3
"""The performance matrix (issue 45): every puzzle x every setting of the
reasoner's parameter grid, each run once by the release `solver solve --json`
under a position limit, written as JSON Lines, one row per run:

  {"puzzle": "path", "family": "klotski", "setting": "grid 5",
   "params": {...}, "args": [...], "limit": L,
   "status": "solved"|"no_solution"|"limit_reached"|"error",
   "positions": N, "seconds": s, "length": steps or null,
   "error": "msg"}                       (status error only)

`params` and `args` are what `reasoner settings --grid N --json` prints for
the setting. The grid depends on the puzzle's number of spaces (`solver
features --json`), so it is asked once per number of spaces (`--spaces S
--grid N --seed SEED`). The family is the puzzle's `% family:` line, else
its folder's name. The limit is in positions, which are deterministic; the
machine is shared, so `--time-limit` is only a safety net (a run it stops
is `limit_reached` with fewer positions than the limit). `error` is a run
the solver refused (say bidirectional search on a goal that does not fix
every block), with its message. `positions` is what the solver examined
(abstract states for the fluid searches), `seconds` its own elapsed time.

Resumable: rows already in OUT (same puzzle, setting and limit) are
skipped, each new row is appended as it finishes, so a stopped run picks
up where it was. Rows are appended in finishing order; `matrix_summary.py`
reads them in any order.

Usage:
  matrix.py -o OUT.jsonl [--limit L] [--grid N] [--seed S] [--jobs J]
            [--time-limit SECONDS] PUZZLE_OR_DIR...
Run it under `nice -n 19` on a shared machine."""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys

from common import REASONER, ROOT, SOLVER, run_json

FAMILY = re.compile(r"^%\s*family:\s*(\S+)", re.MULTILINE)


def puzzle_files(paths):
    """The .txt files named or under the named folders, sorted, relative to ROOT when inside it."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            for d, _, files in os.walk(p):
                out += [os.path.join(d, f) for f in files if f.endswith(".txt")]
        else:
            out.append(p)
    return sorted({os.path.relpath(os.path.abspath(p), ROOT) for p in out})


def family(puzzle):
    """The `% family:` line's value, else the puzzle's folder's name."""
    with open(os.path.join(ROOT, puzzle), encoding="utf-8") as f:
        m = FAMILY.search(f.read())
    return m.group(1) if m else os.path.basename(os.path.dirname(puzzle))


def spaces(puzzle):
    """The puzzle's number of spaces, as the reasoner reads it from `solver features`."""
    f = run_json([SOLVER, "features", puzzle, "--json"], timeout=120)
    if not f:
        sys.exit(f"matrix.py: {puzzle}: `solver features --json` failed")
    return int(f["features"]["num_of_spaces"][0])


def grid(s, size, seed):
    """The grid for puzzles with s spaces: a list of {name, params, args}."""
    out = subprocess.run([REASONER, "settings", "--spaces", str(s), "--grid", str(size),
                          "--seed", str(seed), "--json"], capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        sys.exit(f"matrix.py: reasoner settings --grid failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


def done_keys(path):
    """(puzzle, setting, limit) of every row already in path."""
    keys = set()
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    r = json.loads(line)
                except json.JSONDecodeError:
                    # A row cut off by a stop mid-write: it is run again.
                    print(f"matrix.py: {path}:{n}: unreadable row, ignored", file=sys.stderr)
                    continue
                keys.add((r["puzzle"], r["setting"], r["limit"]))
    return keys


def run(puzzle, fam, setting, limit, time_limit):
    """One matrix row: the solver on puzzle under setting's args."""
    row = {"puzzle": puzzle, "family": fam, "setting": setting["name"], "params": setting["params"],
           "args": setting["args"], "limit": limit}
    cmd = [SOLVER, "solve", puzzle, "--json", "--quiet", "--max-positions", str(limit),
           "--time-limit", str(time_limit), *setting["args"]]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=time_limit + 120)
    except subprocess.TimeoutExpired:
        return {**row, "status": "error", "positions": 0, "seconds": float(time_limit + 120),
                "length": None, "error": "the solver did not stop within its time limit"}
    # The solver exits non-zero when it finds no solution too; a run it
    # refused prints no report, only its message.
    lines = [l for l in out.stdout.splitlines() if l.strip()]
    try:
        r = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        r = None
    if r is None or "status" not in r:
        msg = out.stderr.strip().splitlines()
        return {**row, "status": "error", "positions": 0, "seconds": 0.0, "length": None,
                "error": msg[-1] if msg else f"exit status {out.returncode}"}
    return {**row, "status": r["status"], "positions": r["positions_examined"],
            "seconds": r["elapsed_ms"] / 1000, "length": r["steps"]}


def tasks(puzzles, size, seed, limit, done):
    """Every (puzzle, family, setting) not yet in the output, puzzle by puzzle."""
    grids = {}
    for p in puzzles:
        s = spaces(p)
        if s not in grids:
            grids[s] = grid(s, size, seed)
        fam = family(p)
        for setting in grids[s]:
            if (p, setting["name"], limit) not in done:
                yield p, fam, setting


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", metavar="PUZZLE_OR_DIR")
    ap.add_argument("-o", "--out", required=True, help="the JSON Lines file (appended to)")
    ap.add_argument("--limit", type=int, default=200_000, help="positions per run (default 200,000)")
    ap.add_argument("--grid", type=int, default=50, help="grid size (default 50)")
    ap.add_argument("--seed", type=int, default=0, help="grid seed (default 0)")
    ap.add_argument("--jobs", type=int, default=2, help="solver processes at once (default 2)")
    ap.add_argument("--time-limit", type=int, default=600, help="safety net per run in seconds (default 600)")
    a = ap.parse_args()
    puzzles = puzzle_files(a.paths)
    if not puzzles:
        sys.exit("matrix.py: no puzzle files")
    done = done_keys(a.out)
    count = 0
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "a", encoding="utf-8") as out, \
            concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        futures = [pool.submit(run, p, fam, s, a.limit, a.time_limit)
                   for p, fam, s in tasks(puzzles, a.grid, a.seed, a.limit, done)]
        for f in concurrent.futures.as_completed(futures):
            row = f.result()
            out.write(json.dumps(row) + "\n")
            out.flush()
            count += 1
    print(f"matrix.py: {count} new rows ({len(done)} already there) in {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
