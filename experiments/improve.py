#!/usr/bin/env python3
"""How close the reasoner's improve phase (issue 15: window shortcuts, then
the bounded optimal re-run) brings its solutions to the optimum, where the
optimum is known: Korf's 15-puzzle instances 1-10, the classic Klotski
family and the GNOME levels BFS finishes. Each puzzle is solved unattended, as a user would:
`reasoner solve PUZZLE --casebase casebase/seed.toml --json --jobs 1
--time-budget B`, and the report's first length, the length after the
windows, the re-run's result and the final length are set against the
optimum (target: within 10%).

Optima: Korf's from the collection's first column; Klotski's from the
puzzle file's `% optimum:` line (steps), else from a BFS run here (marked).

Resumable: finished runs are kept in results/improve.json (written
atomically); experiments/improve.md is redrawn from it.

Environment:
  BUDGET      --time-budget of each reasoner run in seconds (default 180)
  PART        korf, klotski, gnome or all (default all)
  TABLE_ONLY=1  redraw improve.md from results/improve.json, run nothing
Run it under `nice -n 10` on a shared machine."""
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

from common import REASONER, ROOT, load_results, save_results, SOLVER

OUT = os.path.join(ROOT, "experiments", "results")
RESULTS = os.path.join(OUT, "improve.json")
SEED = os.path.join(ROOT, "casebase", "seed.toml")
KORF = os.path.join(os.path.dirname(ROOT), "shared", "dev-puzzles", "korf_first10.txt")
KLOTSKI = ["classic", "red_donkey", "pennant", "dads_puzzle", "century", "super_century"]
# The GNOME levels BFS finishes within 2,000,000 positions (experiments/pdb.md) besides
# Red Donkey and Pennant above.
GNOME = ["agatka", "baltic_sea", "bone", "cleopatra", "daisy", "only_18_steps", "pansy", "polonaise"]
BUDGET = float(os.environ.get("BUDGET", 180))


def load():
    return load_results(RESULTS)


def save(results):
    save_results(RESULTS, results)


def measured(args, timeout):
    """Runs a command; its stdout, wall seconds and CPU seconds (user + sys of
    it and the processes it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.time()
    try:
        out = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=timeout).stdout
    except subprocess.TimeoutExpired:
        out = ""
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out, time.time() - started, cpu


def korf_puzzles(work):
    """(name, file, optimum) of Korf's instances 1-10, each imported alone."""
    found = []
    with open(KORF) as f:
        optima = [int(line.split()[0]) for line in f if line.strip()]
    for i, optimum in enumerate(optima, 1):
        path = os.path.join(work, f"korf_{i:02}.txt")
        with open(path, "w") as f:
            subprocess.run([SOLVER, "import", KORF, "--from", "tiles", "--index", str(i)],
                           stdout=f, check=True, cwd=ROOT)
        found.append((f"korf {i}", path, optimum, "Korf 1985"))
    return found


def klotski_optimum(path):
    """The steps optimum of the file's `% optimum:` line, else BFS's."""
    with open(os.path.join(ROOT, path)) as f:
        for line in f:
            m = re.match(r"% optimum:.*?(\d+) steps", line)
            if m:
                return int(m.group(1)), "file"
    out, _, _ = measured([SOLVER, "solve", path, "--json", "--max-positions", "20000000"], 1800)
    r = json.loads(out) if out.strip() else {}
    return (r.get("steps"), "BFS here") if r.get("status") == "solved" else (None, "unknown")


def run(path):
    args = [REASONER, "solve", path, "--casebase", SEED, "--json", "--quiet", "--jobs", "1",
            "--time-budget", str(BUDGET)]
    out, wall, cpu = measured(args, BUDGET + 120)
    try:
        r = json.loads(out)
    except json.JSONDecodeError:
        return {"status": "failed", "seconds": round(wall, 1), "cpu": round(cpu, 1)}
    i = r.get("improvement") or {}
    rerun = i.get("rerun") or {}
    return {
        "status": r["status"],
        "first": i.get("first_steps", r.get("steps")),
        "windows_rerun_bound": rerun.get("bound"),
        "rerun": rerun.get("status"),
        "rerun_search": rerun.get("search"),
        "rerun_positions": rerun.get("positions_examined"),
        "rerun_seconds": round(rerun.get("elapsed_ms", 0) / 1000, 1),
        "final": r.get("steps"),
        "final_by": i.get("final_by"),
        "seconds": round(wall, 1),
        "cpu": round(cpu, 1),
    }


def main():
    os.makedirs(OUT, exist_ok=True)
    results = load()
    part = os.environ.get("PART", "all")
    work = tempfile.mkdtemp()
    puzzles = []
    if part in ("korf", "all"):
        puzzles += korf_puzzles(work)
    for family, names in (("klotski", KLOTSKI), ("gnome", GNOME)):
        if part not in (family, "all"):
            continue
        for name in names:
            path = f"puzzles/klotski/{name}.txt"
            key = f"{name} optimum"
            if key not in results:
                results[key] = klotski_optimum(path)
                save(results)
            optimum, source = results[key]
            puzzles.append((name, path, optimum, source))
    if os.environ.get("TABLE_ONLY") != "1":
        for name, path, optimum, source in puzzles:
            if name in results:
                continue
            load_before = os.getloadavg()[0]
            r = run(path)
            r.update(optimum=optimum, source=source, load=round(load_before, 1))
            results[name] = r
            save(results)
            print(name, r, flush=True)
    write_table(results)


def write_table(results):
    rows, near, known = [], 0, 0
    order = [f"korf {i}" for i in range(1, 11)] + KLOTSKI + GNOME
    for name in sorted(results, key=lambda n: order.index(n) if n in order else len(order)):
        r = results[name]
        if name.endswith(" optimum"):
            continue
        opt, final = r.get("optimum"), r.get("final")
        within = opt and final and final <= 1.1 * opt
        known += bool(opt and final)
        near += bool(within)
        windows = r["windows_rerun_bound"] + 1 if r.get("windows_rerun_bound") is not None else "-"
        rerun = f"{r.get('rerun') or '-'}" + (f" ({r['rerun_search']}, {r['rerun_positions']:,} pos., {r['rerun_seconds']} s)" if r.get("rerun_search") else "")
        ratio = f"{final / opt:.2f}" if opt and final else "-"
        rows.append(f"| {name} | {opt or '?'} ({r.get('source')}) | {r.get('first') or '-'} | {windows} | {rerun} | "
                    f"{final or '-'} | {r.get('final_by') or '-'} | {ratio} | {'yes' if within else 'no'} | "
                    f"{r['seconds']:.0f} s / {r['cpu']:.0f} s (load {r['load']}) |")
    with open(os.path.join(ROOT, "experiments", "improve.md"), "w") as f:
        f.write("# Improve: how close to the optimum (issue 15)\n\n"
                "Produced by `nice -n 10 python3 experiments/improve.py` (resumable; raw results in "
                "`experiments/results/improve.json`). Each run: `reasoner solve PUZZLE --casebase "
                f"casebase/seed.toml --json --jobs 1 --time-budget {BUDGET:g}` (Korf's instances imported "
                "one by one from `../shared/dev-puzzles/korf_first10.txt` with `solver import --from tiles "
                "--index N`). The improve phase is on by default: window shortcuts (`solver improve`), then "
                "the bounded optimal re-run (`solver solve --optimal --max-length N`, N one below the length "
                "the windows left; the solver chooses the search).\n\n"
                "Optima: Korf's published ones; for Klotski and the GNOME levels the puzzle file's "
                "`% optimum:` line (steps), else a BFS run here (`solver solve PUZZLE --json`, "
                "marked 'BFS here').\n\n"
                "Columns: first = the first verified solution's steps; windows = after the window shortcuts; "
                "re-run = its outcome (`shorter`: a shorter solution, verified; `none_shorter`: none within "
                "the bound), the search the solver chose, positions and seconds; final / optimum; time = wall "
                "/ CPU (user+sys of the reasoner and its solvers) on a shared 2-core machine, load average at "
                "the start beside it.\n\n"
                "| puzzle | optimum (source) | first | windows | re-run | final | final from | final / optimum "
                "| within 10% | time (wall / CPU) |\n|---|---|---|---|---|---|---|---|---|---|\n")
        f.write("\n".join(rows) + "\n")
        f.write(f"\nWithin 10% of the optimum: {near} of {known} puzzles with a known optimum and a solution.\n")


if __name__ == "__main__":
    sys.exit(main())
