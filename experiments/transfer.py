#!/usr/bin/env python3
"""Does the case base earn its keep on puzzle families it has never seen?
(issue 45). Leave-one-family-out over a performance matrix (`matrix.py`):
for each family F, a case base is built from the matrix rows of the other
families (`reasoner casebase from-matrix --exclude-family F`), its retrieval
is fitted (`reasoner learn`), and for each puzzle of F the reasoner ranks the
settings it would try (`reasoner rank`) with learned, thesis, random and no
retrieval. What each ranking costs is read from the matrix, as algorithm
selection is measured (ASlib): every setting of the grid was run on every
puzzle under the same position limit L, so the cost of trying a setting is a
lookup, not a rerun.

Costs, in positions examined:
- selection (the headline): the PAR2 cost of the top-ranked setting alone,
  its positions if it solves the puzzle within L, else 2 L;
- schedule: trying the ranking's first A settings in turn, as the reasoner's
  reuse phase does: each failed attempt costs what it examined, the first
  that solves costs its positions; none solving costs 2 A L.
SBS is the single grid setting with the least selection cost over the whole
benchmark (chosen knowing every family, so stricter than one chosen on the
training families); VBS the per-puzzle best. The closed gap is
(SBS - selector) / (SBS - VBS).

  experiments/transfer.py experiments/results/matrix/benchmark-L20000-G50.jsonl --jobs 2

writes experiments/transfer.md, experiments/results/transfer/rows.jsonl and
the plot experiments/results/transfer/closed_gap.{svg,png}; with `--name N`,
experiments/transfer-N.md and experiments/results/transfer/N/ instead (the
collection's run: `--name collection`).
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import REASONER, ROOT  # noqa: E402
from harness import key_text  # noqa: E402
from matrix_summary import lowered  # noqa: E402

MODES = ["learned", "thesis", "random", "none"]
OUT = os.path.join(ROOT, "experiments", "results", "transfer")


def read_matrix(paths):
    """The matrix rows of every file (JSON Lines, gzip or plain)."""
    rows = []
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt") as f:
            rows += [json.loads(line) for line in f if line.strip()]
    return rows


class Matrix:
    """The rows by (puzzle, setting's params), with the puzzles' families."""

    def __init__(self, rows):
        self.cell = {}
        self.family = {}
        self.limit = max(r["limit"] for r in rows)
        for r in rows:
            self.family[r["puzzle"]] = r["family"]
            # A setting the solver refuses for the puzzle (bidir on a goal
            # that does not fix every block) is answered at once and costs
            # nothing: a ranking passes over it, as though it were not there.
            if r["status"] == "error":
                continue
            self.cell[(r["puzzle"], key_text(r["params"]))] = r
        self.settings = sorted({key_text(r["params"]) for r in rows if r["status"] != "error"})
        self.names = {key_text(r["params"]): r["setting"] for r in rows}
        self.puzzles = sorted(self.family)

    def par2(self, puzzle, params_key):
        """Selection cost of one setting on one puzzle: its positions when it
        solves it, else 2 L (also when the solver refuses it there)."""
        r = self.cell.get((puzzle, params_key))
        return r["positions"] if r is not None and r["status"] == "solved" else 2 * self.limit

    def solved(self, puzzle, params_key):
        r = self.cell.get((puzzle, params_key))
        return r is not None and r["status"] == "solved"

    def vbs(self, puzzle):
        return min(self.par2(puzzle, s) for s in self.settings)

    def sbs(self, puzzles):
        """The setting with the least total selection cost over `puzzles`."""
        def total(s):
            return sum(self.par2(p, s) for p in puzzles)
        return min(self.settings, key=lambda s: (total(s), s))

    def schedule(self, puzzle, keys, attempts):
        """Cost and success of trying `keys` in turn, at most `attempts` of them."""
        cost = 0
        for k in [k for k in keys if (puzzle, k) in self.cell][:attempts]:
            r = self.cell[(puzzle, k)]
            cost += r["positions"]
            if r["status"] == "solved":
                return cost, True
        return 2 * attempts * self.limit, False


def reasoner(*args):
    out = subprocess.run([REASONER, *args], capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        raise SystemExit(f"reasoner {' '.join(args)} failed ({out.returncode}):\n{out.stderr}")
    return out.stdout


def train(matrix_paths, family, folder):
    """A case base of every family but `family`, fitted; its path."""
    cb = os.path.join(folder, f"without-{family}.toml")
    reasoner("casebase", "from-matrix", *matrix_paths, "--casebase", cb, "--exclude-family", family)
    reasoner("learn", cb)
    return cb


def rank(puzzle, cb, mode, seed):
    """The params keys `reasoner rank` orders for `puzzle`, best first."""
    text = reasoner("rank", puzzle, "--casebase", cb, "--similarity", mode, "--seed", str(seed), "--json")
    return [key_text(s["params"]) for s in json.loads(text)["settings"]]


def evaluate(matrix, paths, jobs, attempts, seed):
    """One row per puzzle and mode: its ranking's costs."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="transfer-") as folder:
        for family in sorted(set(matrix.family.values())):
            cb = train(paths, family, folder)
            tests = [p for p in matrix.puzzles if matrix.family[p] == family]
            work = [(p, m) for p in tests for m in MODES]
            with ThreadPoolExecutor(jobs) as pool:
                ranked = list(pool.map(lambda pm: rank(pm[0], cb, pm[1], seed), work))
            for (p, m), keys in zip(work, ranked):
                known = [k for k in keys if (p, k) in matrix.cell]
                top = known[0] if known else None
                cost, ok = matrix.schedule(p, keys, attempts)
                rows.append({"puzzle": p, "family": family, "mode": m,
                             "top": matrix.names.get(top), "selection": matrix.par2(p, top),
                             "selection_solved": bool(top) and matrix.solved(p, top),
                             "schedule": cost, "schedule_solved": ok, "ranked": len(keys), "known": len(known)})
            print(f"{family}: {len(tests)} puzzles ranked", file=sys.stderr)
    return rows


def closed(sbs, sel, vbs):
    return None if sbs == vbs else 100.0 * (sbs - sel) / (sbs - vbs)


def summary(matrix, rows, attempts):
    """Per family and overall: the figures of transfer.md, as table rows."""
    sbs = matrix.sbs(matrix.puzzles)
    groups = sorted(set(matrix.family.values())) + ["overall"]
    table = []
    for g in groups:
        ps = [p for p in matrix.puzzles if g == "overall" or matrix.family[p] == g]
        s_cost = sum(matrix.par2(p, sbs) for p in ps)
        v_cost = sum(matrix.vbs(p) for p in ps)
        line = {"group": g, "puzzles": len(ps), "sbs": s_cost, "vbs": v_cost,
                "sbs_solved": sum(matrix.solved(p, sbs) for p in ps),
                "vbs_solved": sum(any(matrix.solved(p, s) for s in matrix.settings) for p in ps)}
        for m in MODES:
            mine = [r for r in rows if r["mode"] == m and r["puzzle"] in set(ps)]
            sel = sum(r["selection"] for r in mine)
            line[m] = {"selection": sel, "solved": sum(r["selection_solved"] for r in mine),
                       "schedule": sum(r["schedule"] for r in mine),
                       "schedule_solved": sum(r["schedule_solved"] for r in mine),
                       "closed": closed(s_cost, sel, v_cost)}
        table.append(line)
    return sbs, table


def pct(x):
    return "n/a" if x is None else f"{x:.0f}%"


def markdown(matrix, sbs, table, args, plots):
    overall = table[-1]
    out = ["# Transfer: the case base on puzzle families it has never seen (issue 45)", "",
           f"closed gap: {pct(overall['learned']['closed'])}", "",
           "Leave-one-family-out over the performance matrix "
           f"`{' '.join(os.path.relpath(p, ROOT) for p in args.matrix)}`: {len(matrix.puzzles)} puzzles, "
           f"{len(matrix.settings)} settings, position limit L = {matrix.limit:,}"
           + (" (the matrix read as if run under it: `--limit`, rows solved within L are the same runs)" if args.limit else "")
           + ". For each family the case base "
           "holds the other families' puzzles with their full performance profiles, its retrieval fitted by "
           "`reasoner learn`; `reasoner rank` orders the settings for each held-out puzzle and the matrix gives "
           "what they cost (settings the solver refuses for a puzzle, such as bidir where the goal does not fix every block, are passed over). Made by `experiments/transfer.py` (see its docstring for the definitions); "
           f"SBS is `{matrix.names[sbs]}` `{sbs}`.", "",
           "Selection: PAR2 positions of the top-ranked setting (unsolved: 2 L). Closed gap: "
           "(SBS - mode) / (SBS - VBS).", "",
           "| family | puzzles | SBS solved | VBS solved | SBS PAR2 | VBS PAR2 | "
           + " | ".join(f"{m} solved | {m} PAR2 | {m} closed" for m in MODES) + " |",
           "|" + "---|" * (6 + 3 * len(MODES))]
    for line in table:
        cells = [line["group"], line["puzzles"], line["sbs_solved"], line["vbs_solved"],
                 f"{line['sbs']:,}", f"{line['vbs']:,}"]
        for m in MODES:
            cells += [line[m]["solved"], f"{line[m]['selection']:,}", pct(line[m]["closed"])]
        out.append("| " + " | ".join(str(c) for c in cells) + " |")
    out += ["", f"Schedule: the first {args.attempts} ranked settings tried in turn (unsolved: 2 x {args.attempts} x L).", "",
            "| family | " + " | ".join(f"{m} solved | {m} positions" for m in MODES) + " |",
            "|" + "---|" * (1 + 2 * len(MODES))]
    for line in table:
        cells = [line["group"]]
        for m in MODES:
            cells += [line[m]["schedule_solved"], f"{line[m]['schedule']:,}"]
        out.append("| " + " | ".join(str(c) for c in cells) + " |")
    rnd, lrn = overall["random"]["selection"], overall["learned"]["selection"]
    out += ["", f"Learned retrieval's selection cost is 1/{rnd / max(lrn, 1):.2f} of a random case's.",
            "", f"![closed gap per family]({plots}/closed_gap.svg)", ""]
    return "\n".join(out)


def plot(table, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from plot import grouped_bars, save
    labels = [t["group"] for t in table]
    series = {m: [t[m]["closed"] for t in table] for m in MODES}
    fig, ax = plt.subplots(figsize=(7, 3.5))
    grouped_bars(ax, labels, series)
    ax.axhline(50, color="gray", linestyle="--", linewidth=0.8)
    ax.set_ylabel("closed SBS-VBS gap (%)")
    ax.legend(fontsize=7)
    save(fig, "closed_gap", out=out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("matrix", nargs="+", help="performance matrix files (JSON Lines, .gz allowed)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--attempts", type=int, default=5, help="settings a schedule tries (default 5)")
    ap.add_argument("--seed", type=int, default=0, help="seed of random retrieval")
    ap.add_argument("--limit", type=int, help="read the matrix as if run under this lower position limit")
    ap.add_argument("--name", default="", help="write transfer-NAME.md and results/transfer/NAME/")
    args = ap.parse_args()
    out = os.path.join(OUT, args.name) if args.name else OUT
    md = f"transfer-{args.name}.md" if args.name else "transfer.md"
    rows = read_matrix(args.matrix)
    with tempfile.TemporaryDirectory(prefix="transfer-matrix-") as folder:
        paths = args.matrix
        if args.limit:
            if args.limit > min(r["limit"] for r in rows):
                sys.exit(f"transfer.py: --limit {args.limit} is above the matrix's limit")
            # One matrix for everything: the case bases are built from the
            # same lowered rows the costs are read from.
            rows = [lowered(r, args.limit) for r in rows]
            paths = [os.path.join(folder, f"matrix-L{args.limit}.jsonl")]
            with open(paths[0], "w") as f:
                f.writelines(json.dumps(r) + "\n" for r in rows)
        matrix = Matrix(rows)
        rows = evaluate(matrix, paths, args.jobs, args.attempts, args.seed)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "rows.jsonl"), "w") as f:
        f.writelines(json.dumps(r, sort_keys=True) + "\n" for r in rows)
    sbs, table = summary(matrix, rows, args.attempts)
    with open(os.path.join(ROOT, "experiments", md), "w") as f:
        f.write(markdown(matrix, sbs, table, args, os.path.relpath(out, os.path.join(ROOT, "experiments"))))
    plot(table, out)
    print(f"closed gap: {pct(table[-1]['learned']['closed'])}")


if __name__ == "__main__":
    main()
