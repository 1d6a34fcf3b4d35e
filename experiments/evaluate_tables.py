"""The tables and figures of experiments/evaluate.py, from the runs recorded
in experiments/results/evaluate/runs.jsonl (running nothing):

- table8_4.md: the general settings, the oracle and the reasoner per puzzle;
- ablations.md, ablations.svg/.png: solved puzzles per retrieval, mean and spread;
- learning_curve.md, learning_curve.svg/.png: positions against cases held;
- quality.md: the reasoner's steps against the known optima;
- learned.md: learned retrieval against the thesis similarity and a random
  case on the profiled seed case base (PARTS=learned, issue 45);
- MACHINE.md: the scale, commits and machines the recorded runs came from.

They go into a folder of experiments/results/evaluate/ named for the scale
(`Scale.tag`, e.g. `L200000-A10-F10-G50-S5-O5-quick`), so the tables of
runs at several scales stand side by side.

Every table states the scale it was run at and how many of its runs are
recorded, so a partial run reads as what it is.
"""
import os
import re
import statistics
from collections import Counter

from common import ROOT

import evaluate as ev

# Where the tables go: a folder of the results named for the scale (write_all).
TABLES = None
METHODS = ["thesis", "extended", "random", "none"]
METHOD_NAMES = {"thesis": "thesis similarity", "extended": "extended similarity", "learned": "learned retrieval",
                "random": "a random case", "none": "no retrieval (general settings)"}


def short(p):
    return os.path.splitext(os.path.basename(p))[0]


def scale_line(scale, files):
    return (f"Scale: {len(files)} puzzles{' (QUICK: every sixth)' if scale.quick else ''}, "
            f"{scale.limit:,} positions per solver run, reasoner {scale.attempts} attempts then a final run of at most "
            f"{scale.final_timeout} s, `--jobs 1`. (The thesis: 5,000,000 positions, 25 attempts.)\n\n")


# The recorded lines the tables used, by key text (MACHINE.md counts them).
USED = {}


def result(store, run):
    """The recorded result of `run` (a `(key, work)` pair), or None."""
    line = store.get(run[0])
    if line:
        USED[ev.key_text(run[0])] = line
    return line["result"] if line else None


def cell(r):
    """A solver or reasoner result as a table cell."""
    if r is None:
        return "not run"
    if r["status"] == "solved":
        return f"{r['steps']} / {r.get('positions_examined', r.get('positions')):,}"
    start, best = r.get("start_distance"), r.get("best_distance", r.get("best"))
    if r["status"] == "limit_reached" and start and best is not None:
        return f"({1 - best / start:.2f})"
    return r["status"]


class Tally:
    """Puzzles solved and positions examined on them, for one method."""

    def __init__(self):
        self.solved = self.positions = self.recorded = 0

    def add(self, r):
        if r is None:
            return
        self.recorded += 1
        if r["status"] == "solved":
            self.solved += 1
            self.positions += r.get("positions_examined", r.get("positions")) or 0

    def row(self, name, n):
        return f"| {name} | {self.solved} of {self.recorded} | {self.positions:,} | {self.recorded} of {n} |\n"


def spaces_of(store, p):
    r = result(store, ev.features_run(p))
    return r["spaces"] if r else None


def oracle(store, p, grid, limit):
    """The grid's best set on `p` (fewest positions among the solved), and
    how many grid points are recorded."""
    runs = [(name, result(store, ev.solver_run(p, args, limit))) for name, args in grid]
    done = [(name, r) for name, r in runs if r is not None]
    solved = [(r["positions_examined"], name, r) for name, r in done if r["status"] == "solved"]
    return (min(solved, key=lambda x: x[0]) if solved else None), len(done)


def table_8_4(store, files, scale):
    general = Tally(), Tally(), Tally(), Tally()
    best_oracle, reasoner = Tally(), Tally()
    names, rows, grid_done, grid_total = None, [], 0, 0
    for p in files:
        s = spaces_of(store, p)
        if s is None:
            continue
        grid = ev.grid_args(s, scale.grid)
        names = names or [n.removeprefix("standard: ") for n, _ in grid[:4]]
        g = [result(store, ev.solver_run(p, args, scale.limit)) for _, args in grid[:4]]
        for t, r in zip(general, g):
            t.add(r)
        best, done = oracle(store, p, grid, scale.limit)
        grid_done, grid_total = grid_done + done, grid_total + len(grid)
        if done == len(grid):
            best_oracle.add(best[2] if best else {"status": "unsolved"})
        r = result(store, ev.ablation_run(p, "thesis", 1, scale))
        reasoner.add(r)
        o = (f"{best[2]['steps']} / {best[0]:,} ({best[1]})" if best else "unsolved") + ("" if done == len(grid) else f" [{done} of {len(grid)}]")
        rows.append(f"| {short(p)} | " + " | ".join(map(cell, g)) + f" | {o} | {cell(r)} |\n")
    n = len(files)
    text = ("# The reasoner against the general settings and an oracle (thesis table 8.4, issue 18)\n\n" + scale_line(scale, files)
            + f"Oracle: per puzzle the best of {scale.grid} parameter sets drawn over the whole parameter space "
            "(`reasoner settings --grid`, seed 1; its first four are the general settings), counted only for puzzles whose "
            f"grid is complete ({grid_done:,} of {grid_total:,} grid runs recorded). The reasoner uses the thesis similarity, "
            "seed 1, with casebase/seed.toml less the puzzle's own case. Cells: steps / positions examined; unsolved: "
            "(progress 1 - d_min/d) or the status; `[k of n]`: grid points recorded so far.\n\n"
            "| method | solved (of recorded) | positions on solved puzzles | puzzles recorded |\n|---|---|---|---|\n"
            + "".join(t.row(nm, n) for nm, t in zip(names or ["?"] * 4, general))
            + best_oracle.row(f"oracle (best of {scale.grid})", n) + reasoner.row("**reasoner** (thesis, seed 1)", n)
            + "\n| puzzle | " + " | ".join(names or []) + " | oracle | reasoner |\n" + "|---" * 7 + "|\n" + "".join(rows))
    write("table8_4.md", text)
    return {"general": [t.solved for t in general], "oracle": best_oracle.solved, "reasoner": reasoner.solved}


def spread(values):
    """Mean ± standard deviation (min-max)."""
    if not values:
        return "-"
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return f"{statistics.mean(values):.2f} ± {sd:.2f} ({min(values)}-{max(values)})"


def ablations(store, files, scale):
    per_method, effort, lines = {}, {}, []
    for m in METHODS:
        solved, within, positions, total, complete = [], [], [], [], 0
        for seed in range(1, scale.seeds + 1):
            rs = [result(store, ev.ablation_run(p, m, seed, scale)) for p in files]
            if any(r is None for r in rs):
                continue
            complete += 1
            solved.append(sum(r["status"] == "solved" for r in rs))
            within.append(sum(r["status"] == "solved" and r["solved_by_phase"] != "final" for r in rs))
            positions.append(round(sum(r["positions"] for r in rs if r["status"] == "solved") / 1e6, 2))
            total.append(round(sum(r.get("positions", 0) for r in rs) / 1e6, 2))
        per_method[m], effort[m] = solved, total
        lines.append(f"| {METHOD_NAMES[m]} | {complete} of {scale.seeds} | {spread(solved)} | {spread(within)} | "
                     f"{spread(positions)} | {spread(total)} |\n")
    text = ("# Does retrieval matter? The reasoner's ablations (issue 18)\n\n" + scale_line(scale, files)
            + "Every run uses casebase/seed.toml less the puzzle's own case, the same limit and attempts; only the "
            "choice of the reused cases differs (`--similarity thesis|extended`, `--retrieval random|none`). "
            "Mean ± standard deviation (min-max) over the seeds whose runs are all recorded.\n\n"
            "| retrieval | seeds complete | puzzles solved | of them within the limit (not by the final run) | million positions on solved puzzles | million positions on all puzzles |\n|---|---|---|---|---|---|\n"
            + "".join(lines) + "\n![solved per retrieval](ablations.svg)\n" + seed_one_side_by_side(store, files, scale))
    write("ablations.md", text)
    plot_ablations(per_method, effort, len(files))
    return {"solved": per_method, "million positions": effort}


def learned(store, files, scale):
    """learned.md: seed 1 on the profiled seed case base (part `learned`),
    learned retrieval beside the thesis similarity and a random case, on the
    puzzles whose three runs are recorded."""
    modes = ["learned", "thesis", "random"]
    runs = {p: [ev.ablation_run(p, m, 1, scale, profiled=True) for m in modes] for p in files}
    rows = {p: [result(store, run) for run in r] for p, r in runs.items()}
    done = {p: r for p, r in rows.items() if all(r)}
    if not done:
        return {}
    commits = sorted({store.get(run[0])["commit"] for p in done for run in runs[p]})
    figures, lines = {}, []
    for i, m in enumerate(modes):
        rs = [r[i] for r in done.values()]
        solved = sum(r["status"] == "solved" for r in rs)
        total = sum(r.get("positions", 0) for r in rs)
        figures[m] = {"solved": solved, "million positions": round(total / 1e6, 2)}
        lines.append(f"| {METHOD_NAMES[m]} | {solved} | {total / 1e6:.2f} |\n")
    differ = [p for p, r in done.items() if len({x["status"] == "solved" for x in r}) > 1]
    text = ("# Learned retrieval on the collection (issue 45)\n\n" + scale_line(scale, files)
            + "Seed 1. The case base is casebase/seed.toml with its cases' performance profiles (and, where the "
            f"matrix found better parameters, those) from `{ev.PROFILE_MATRIX}`, less the puzzle's own case; "
            "for learned retrieval it is refitted by `reasoner learn` after that case is cut out. The three "
            "retrievals choose from the same cases. "
            f"{len(done)} of {len(files)} puzzles have all three runs recorded; the rows count those "
            f"(commits {', '.join(commits)}).\n\n"
            "| retrieval | solved | million positions on all |\n|---|---|---|\n" + "".join(lines)
            + ("\nWhere they differ in solved: " + ", ".join(short(p) for p in differ) + ".\n" if differ
               else "\nThe three solve the same puzzles.\n")
            + "\nFor reference, `ablations.md` (seed.toml without profiles, as it was before version 2, older "
            "commits): thesis similarity 62 solved, 92.24M positions; a random case 62, 79.71M (mean of five seeds).\n")
    write("learned.md", text)
    return figures


def seed_one_side_by_side(store, files, scale):
    """Seed 1 on the puzzles whose four runs are all recorded, so that a run
    cut short still compares the methods on equal ground; and the puzzles
    where the methods differ in solved or not."""
    rows = {p: {m: result(store, ev.ablation_run(p, m, 1, scale)) for m in METHODS} for p in files}
    both = {p: r for p, r in rows.items() if all(r.values())}
    if not both:
        return ""
    lines = "".join(
        f"| {METHOD_NAMES[m]} | {sum(r[m]['status'] == 'solved' for r in both.values())} | "
        f"{sum(r[m]['positions'] for r in both.values() if r[m]['status'] == 'solved') / 1e6:.2f} | "
        f"{sum(r[m].get('positions', 0) for r in both.values()) / 1e6:.2f} |\n" for m in METHODS)
    differ = [p for p, r in both.items() if len({x["status"] == "solved" for x in r.values()}) > 1]
    cells = "".join(f"| {os.path.basename(p)[:-4]} | " + " | ".join(
        "solved" if r[m]["status"] == "solved" else r[m]["status"] for m in METHODS) + " |\n"
        for p, r in ((p, both[p]) for p in differ))
    return (f"\n## Seed 1, side by side\n\nThe {len(both)} of {len(files)} puzzles whose four seed-1 runs are "
            "all recorded.\n\n| retrieval | solved | million positions on solved puzzles | million positions "
            "on all |\n|---|---|---|---|\n" + lines
            + ("\nWhere the methods differ:\n\n| puzzle | " + " | ".join(METHOD_NAMES[m] for m in METHODS)
               + " |\n|---|---|---|---|---|\n" + cells if differ else "\nThe four solve the same puzzles.\n"))


def learning_rows(rs, n):
    """One order's table rows: per pass the runs, solved, positions, and
    positions on the puzzles solved in both passes; the two ratios once both
    passes are complete."""
    by = {(k["pass"], k["puzzle"]): r for k, r in rs if r}
    both = [p for (ps, p), r in by.items() if ps == 1 and r["status"] == "solved"
            and by.get((2, p), {}).get("status") == "solved"]
    rows = []
    for pass_ in (1, 2):
        done = [r for (ps, _), r in by.items() if ps == pass_]
        rows.append([len(done), sum(r["status"] == "solved" for r in done), sum(r["positions"] for r in done),
                     sum(by[(pass_, p)]["positions"] for p in both)])
    complete = rows[0][0] == rows[1][0] == n
    ratios = (rows[0][2] / max(rows[1][2], 1), rows[0][3] / max(rows[1][3], 1)) if complete else None
    return rows, len(both), ratios


def learning(store, files, scale):
    lines, ratios, curves = [], [], {}
    for order in range(1, scale.orders + 1):
        rs = [(key, result(store, (key, None))) for key, _ in ev.learning_chain(files, order, scale)]
        curves[order] = [(k["pass"], r["cases_before"], r["positions"], r["status"] == "solved") for k, r in rs if r]
        rows, both, ratio = learning_rows(rs, len(files))
        if ratio:
            ratios.append(ratio)
        for pass_, (done, solved, pos, pos_both) in zip((1, 2), rows):
            shown = f"{ratio[0]:.2f} | {ratio[1]:.2f}" if ratio and pass_ == 2 else " | "
            lines.append(f"| {order} | {pass_} | {done} of {len(files)} | {solved} | {pos:,} | {pos_both:,} ({both}) | {shown} |\n")
    mean = [statistics.mean(r[i] for r in ratios) for i in (0, 1)] if ratios else None
    text = ("# Learning curve: the case base grown from empty (issue 18)\n\n" + scale_line(scale, files)
            + f"The collection in {scale.orders} random orders (order k: Python's `random.Random(k).shuffle`), each solved "
            "twice over with `reasoner solve --retain --seed 1` into one case base that starts empty (so the general "
            "settings stand in at first). Positions: over every attempt of every run; a puzzle left unsolved costs "
            "its whole budget in both passes, so the positions on the puzzles solved in both passes (how many in "
            "brackets) show what retention saves.\n\n"
            "| order | pass | runs recorded | solved | positions examined | on puzzles solved in both passes | "
            "first pass / second | the same, solved in both |\n|---|---|---|---|---|---|---|---|\n"
            + "".join(lines)
            + (f"\nFirst pass over second, mean over the {len(ratios)} complete orders: {mean[0]:.2f} in all, "
               f"{mean[1]:.2f} on the puzzles solved in both passes (the target: 2 or more in all).\n" if mean else "")
            + "\n![positions against cases held](learning_curve.svg)\n")
    write("learning_curve.md", text)
    plot_learning(curves)
    return mean


def optima():
    """Known optimal steps per puzzle path: puzzles/README.md's published
    optimum, else the solver's measured (BFS) value."""
    out = {}
    for line in open(os.path.join(ROOT, "puzzles", "README.md")):
        cols = [c.strip() for c in line.split("|")]
        if len(cols) > 6 and cols[1].endswith(".txt"):
            m = re.search(r"(\d+) steps", cols[5]) or re.search(r"(\d+) steps", cols[6])
            if m:
                out["puzzles/" + cols[1]] = int(m.group(1))
    return out


def improved(run):
    """A run's first and final lengths, `first -> final (by)`, or the final
    length alone for a run recorded before the report's first length was."""
    first, final = run.get("first_steps"), run["steps"]
    if first is None:
        return str(final)
    return f"{first} -> {final}" + (f" ({run['improved_by']})" if first != final else "")


def quality(store, files, scale):
    best = optima()
    improve = ev.has_improve()
    lines, ratios, firsts = [], [], []
    for p in files:
        if p not in best:
            continue
        steps = [r["steps"] for seed in range(1, scale.seeds + 1)
                 if (r := result(store, ev.ablation_run(p, "thesis", seed, scale))) and r["status"] == "solved"]
        imp = result(store, ev.ablation_run(p, "thesis", 1, scale, improve=True)) if improve else None
        ratios += [s / best[p] for s in steps]
        if imp and imp["status"] == "solved" and imp.get("first_steps"):
            firsts.append((imp["first_steps"] / best[p], imp["steps"] / best[p]))
        lines.append(f"| {short(p)} | {best[p]} | {', '.join(map(str, steps)) or '-'} | "
                     f"{(max(steps) / best[p]):.2f} |" if steps else f"| {short(p)} | {best[p]} | - | - |")
        lines[-1] += f" {improved(imp) if imp and imp['status'] == 'solved' else ('not run' if not improve else '-')} |\n"
    text = ("# Solution quality: the reasoner's steps against the known optima (issue 18)\n\n" + scale_line(scale, files)
            + "Optimum: puzzles/README.md's published optimum in steps, else its BFS-measured one. Reasoner: the thesis "
            "similarity, every recorded seed (steps of each solved run). "
            + ("The reasoner shortens its first solution by default (the improve phase, since commit 88bfca3), so "
               "the steps per seed are after it. `first -> final` (seed 1, `--improve`): the first solution's "
               "length and the final one from the same run's report, and which step shortened it (windows, rerun).\n\n"
               if improve else
               "`--improve` column: this reasoner has no `--improve` yet (issue 15); the column fills in when it does.\n\n")
            + (f"Over all solved runs the reasoner's solutions are {statistics.mean(ratios):.2f}x the optimum on average "
               f"(worst {max(ratios):.2f}x).\n\n" if ratios else "")
            + (f"With `--improve` at seed 1 ({len(firsts)} solved runs): the first solutions are "
               f"{statistics.mean(f for f, _ in firsts):.2f}x the optimum on average (worst {max(f for f, _ in firsts):.2f}x), "
               f"the final ones {statistics.mean(g for _, g in firsts):.2f}x (worst {max(g for _, g in firsts):.2f}x).\n\n"
               if firsts else "")
            + "| puzzle | optimum (steps) | reasoner steps per seed | worst / optimum | first -> final (seed 1) |\n|---|---|---|---|---|\n"
            + "".join(lines))
    write("quality.md", text)


def machine(scale):
    stamps = Counter((l.get("commit"), l.get("machine")) for l in USED.values())
    when = sorted(l.get("finished", "") for l in USED.values() if l.get("finished"))
    text = ("# Where the evaluation's runs came from\n\n"
            f"Scale of these tables: " + ", ".join(f"{k}={v}" for k, v in scale.as_dict().items()) + ".\n\n"
            + (f"Runs finished from {when[0]} to {when[-1]} (UTC).\n\n" if when else "")
            + "The runs these tables use:\n\n| commit | machine | runs |\n|---|---|---|\n"
            + "".join(f"| {c} | {m} | {n} |\n" for (c, m), n in sorted(stamps.items(), key=lambda x: -x[1])))
    write("MACHINE.md", text)


def write(name, text):
    with open(os.path.join(TABLES, name), "w") as f:
        f.write(text)
    print(f"wrote {os.path.relpath(os.path.join(TABLES, name))}")


def plot_ablations(per_method, effort, n):
    """Solved puzzles and positions on all puzzles per retrieval: bars the
    mean, whiskers the standard deviation, dots the seeds."""
    plot = _plt()
    if plot is None:
        return
    fig, axes = plot.plt.subplots(1, 2, figsize=(10, 3.8))
    panels = ((per_method, f"puzzles solved (of {n})"), (effort, "million positions examined, all puzzles"))
    for ax, (values, label) in zip(axes, panels):
        means = [statistics.mean(values[m]) if values[m] else 0 for m in METHODS]
        errs = [statistics.stdev(values[m]) if len(values[m]) > 1 else 0 for m in METHODS]
        ax.bar([METHOD_NAMES[m] for m in METHODS], means, yerr=errs, capsize=4, color=["C3", "C1", "C0", "C7"])
        for i, m in enumerate(METHODS):
            ax.scatter([i] * len(values[m]), values[m], color="k", s=8, zorder=3)
        ax.set_ylabel(label)
        ax.tick_params(axis="x", labelsize=7, rotation=15)
    fig.suptitle("Retrieval ablations: mean ± sd over seeds, dots per seed", fontsize=9)
    plot.save(fig, "ablations", TABLES)


def plot_learning(curves):
    """Positions against cases held, one panel per pass (none without runs)."""
    plot = _plt()
    if plot is None or not any(curves.values()):
        return
    fig, axes = plot.plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for order, points in curves.items():
        for ax, pass_ in zip(axes, (1, 2)):
            pts = [(c, max(p, 1), s) for ps, c, p, s in points if ps == pass_]
            ax.scatter([c for c, _, s in pts if s], [p for _, p, s in pts if s], color=f"C{order}", s=12,
                       label=f"order {order}")
            ax.scatter([c for c, _, s in pts if not s], [p for _, p, s in pts if not s], facecolors="none",
                       edgecolors=f"C{order}", s=12)
    for ax, pass_ in zip(axes, (1, 2)):
        ax.set_yscale("log")
        ax.set_xlabel("cases held before the run")
        ax.set_title(f"pass {pass_} (filled: solved, hollow: not)", fontsize=9)
    axes[0].set_ylabel("positions examined (log scale)")
    axes[0].legend(fontsize=7)
    plot.save(fig, "learning_curve", TABLES)


def _plt():
    """experiments/plot.py's matplotlib setup and `save`, or None without matplotlib."""
    try:
        import plot
    except ImportError:
        print("matplotlib is missing (pip install matplotlib): figures skipped")
        return None
    return plot


def write_all(store, files, scale):
    global TABLES
    TABLES = os.path.join(ev.OUT, scale.tag())
    os.makedirs(TABLES, exist_ok=True)
    print(table_8_4(store, files, scale))
    print(ablations(store, files, scale))
    print(learning(store, files, scale))
    print(learned(store, files, scale))
    quality(store, files, scale)
    machine(scale)
