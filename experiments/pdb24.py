"""The 24-puzzle section of experiments/pdb.md: Korf and Taylor's ten
instances (experiments/data/korf24.txt) by IDA* with the automatic tables
(6-6-6-6 and their reflection, 255 MB) on the tile kernel, two threads.

The tables are built once from nothing (an empty cache, `solver pdb info`,
timed), then each instance runs in its own `solver solve` process with a time
limit (`--budget`, seconds): solved ones give their length (checked against the
published optimum), the others the bound reached and the positions examined,
read from the progress lines IDA* prints on standard error under --json.
Results are saved to experiments/results/pdb24.json.

Run after `cargo build --release --bins`:
    python3 experiments/pdb.py --part korf24 [--budget S] [--instances 2,1,...]
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, SOLVER  # noqa: E402

KORF24 = os.path.join(ROOT, "experiments", "data", "korf24.txt")
SAVED = os.path.join(ROOT, "experiments", "results", "pdb24.json")


def add_arguments(ap):
    ap.add_argument("--budget", default="240",
                    help="seconds per 24-puzzle instance (the issue's target: 3600), or a "
                         "list, one per --instances entry, the last repeated")
    ap.add_argument("--instances", default="1,2,3,4,5,6,7,8,9,10",
                    help="which of Korf and Taylor's ten, in the order to run them")


def instances():
    """(optimum, line) of the ten, in file order."""
    lines = [l for l in open(KORF24).read().splitlines() if l.strip() and not l.startswith("%")]
    return [(int(l.split()[0]), l) for l in lines]


def timed(args):
    """Runs `args`; returns (stdout, stderr, wall s, CPU s, peak RSS MiB) of
    that process alone."""
    started = time.time()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(args, stdout=out, stderr=err, text=True, cwd=ROOT)
        _, _, usage = os.wait4(child.pid, 0)
        wall = time.time() - started
        out.seek(0)
        err.seek(0)
        return (out.read(), err.read(), wall, usage.ru_utime + usage.ru_stime,
                usage.ru_maxrss / 1024)


def start_estimate(path, cache):
    """The tables' estimate of the start (`solver pdb info`)."""
    info = timed([SOLVER, "pdb", "info", path, "--from", "tiles", "--width", "5",
                  "--pdb-cache", cache])[0]
    found = re.search(r"start estimate: (\d+)", info)
    return int(found.group(1)) if found else None


def run(a):
    """Builds the tables, then runs the chosen instances; returns the record."""
    ten = instances()
    chosen = [int(x) for x in a.instances.split(",")]
    budgets = [int(x) for x in a.budget.split(",")]
    record = {"budget": a.budget, "rows": []}
    with tempfile.TemporaryDirectory() as tmp:
        cache = os.path.join(tmp, "cache")
        first = os.path.join(tmp, "first.txt")
        with open(first, "w") as f:
            f.write(ten[0][1] + "\n")
        info, _, wall, cpu, _ = timed([SOLVER, "pdb", "info", first, "--from", "tiles",
                                       "--width", "5", "--threads", "2", "--pdb-cache", cache])
        record["build"] = {"wall": wall, "cpu": cpu,
                           "tables": info.split(", goal 1 of 1:")[1].split("start estimate")[0]
                           .strip("\n")}
        print(f"tables: {wall:.1f} s", file=sys.stderr)
        for i, n in enumerate(chosen):
            optimum, line = ten[n - 1]
            budget = budgets[min(i, len(budgets) - 1)]
            path = os.path.join(tmp, f"k{n}.txt")
            with open(path, "w") as f:
                f.write(line + "\n")
            out, err, wall, cpu, rss = timed(
                [SOLVER, "solve", path, "--from", "tiles", "--width", "5", "--algorithm", "ida",
                 "--heuristic", "pdb", "--threads", "2", "--pdb-cache", cache, "--json",
                 "--time-limit", str(budget)])
            r = json.loads(out.splitlines()[-1])
            bounds = re.findall(r"progress: bound (\d+), (\d+) positions", err)
            row = {"n": n, "optimum": optimum, "status": r["status"], "steps": r.get("steps"),
                   "examined": r["positions_examined"], "wall": wall, "cpu": cpu, "rss": rss,
                   "budget": budget,
                   "start": start_estimate(path, cache),
                   "bound": int(bounds[-1][0]) if bounds else None,
                   "lower_bound": r.get("lower_bound")}
            record["rows"].append(row)
            print(f"#{n}: {row['status']} {row['steps']} bound {row['bound']} "
                  f"{row['examined']:,} positions {wall:.0f} s", file=sys.stderr)
            with open(SAVED, "w") as f:
                json.dump(record, f, indent=1)
    return record


def section(a, redraw=False):
    """The page's lines for the 24-puzzle."""
    record = json.load(open(SAVED)) if redraw else run(a)
    build, rows = record["build"], record["rows"]
    md = ["## Korf and Taylor's ten 24-puzzle instances: IDA* on the tile kernel", "",
          f"`python3 experiments/pdb.py --part korf24 --budget {record['budget']} --instances "
          f"{','.join(str(r['n']) for r in rows)}`. Each instance one `solver solve` process: "
          f"`--from tiles --width 5 --algorithm ida "
          f"--heuristic pdb --threads 2 --time-limit BUDGET` (the automatic tables "
          f"and the kernel of `solver/src/search/tiles/`). The tables were built once, from "
          f"nothing, in **{build['wall']:.1f} s** wall ({build['cpu']:.1f} CPU s):", "",
          "```", build["tables"], "```", "",
          "| # | optimum | start estimate | budget s | answer | bound reached | positions | s | "
          "CPU s | positions/s | RSS MiB |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        answer = f"**{r['steps']}**" if r["status"] == "solved" else f"none ({r['status']})"
        rate = r["examined"] / max(r["wall"], 1e-9)
        md.append(f"| {r['n']} | {r['optimum']} | {r['start']} | {r['budget']} | {answer} | "
                  f"{r['bound']} | "
                  f"{r['examined']:,} | {r['wall']:.0f} | {r['cpu']:.0f} | {rate / 1e6:.1f}M | "
                  f"{r['rss']:.0f} |")
    solved = [r for r in rows if r["status"] == "solved"]
    optimal = [r for r in solved if r["steps"] == r["optimum"]]
    md += ["", f"- Solved within the budget: {len(solved)} of {len(rows)}, "
           f"{len(optimal)} at the published optimum.",
           "- \"bound reached\": the last IDA* bound started; every solution is at least that "
           "long (the JSON's `lower_bound`), the positions are those of all bounds so far.",
           "- The bound rises by 2 (the sums' parity); each bound costs about ten times the "
           "one before, so an instance whose optimum lies k steps above its start estimate "
           "takes about 10^(k/2) times the first bound's positions."]
    return md
