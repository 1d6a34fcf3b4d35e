"""Draws the experiments' figures with matplotlib from the raw results in
experiments/results/*.jsonl, running nothing else, so it can be rerun alone:

    python3 experiments/plot.py

Each figure is saved as SVG and PNG in experiments/results/:

- fig8_2_positions_solved: thesis figure 8.2, "positions examined for solved
  puzzles, two methods and all puzzles". The two methods are the general
  settings (per puzzle the best of the four, as in the thesis's table 8.4:
  "the result that examined the fewest positions is shown") and the
  meta-reasoner. As the thesis describes it, "the puzzles are sorted by
  increasing search effort", each method's solved puzzles on their own, so a
  shorter curve means fewer puzzles solved. Log scale: the counts span decades.
- fig8_4_progress_unsolved: thesis figure 8.4, "progress for unsolved
  puzzles, two methods and all puzzles": 1 - d_m/d (d_m the master's least
  Manhattan distance to the goal seen, d the distance at the start) for each
  puzzle a method left unsolved, sorted the same way.
- positions_solved: every method per puzzle (log scale), puzzles in the
  order of the reasoner's effort.
- progress_unsolved: the four general settings and the reasoner on the
  puzzles some general setting left unsolved.
- encodings: bytes per stored position with the rank and packed encodings.

The thesis's own images are not in its text (only their captions and the
paragraphs describing them); these follow those descriptions.
"""
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
GENERAL = ["BFS", "aggressive BFS", "A* w5 h0", "aggressive A* w10 h2"]
# Stable SVG output: no timestamps, fixed element ids, so reruns diff cleanly.
plt.rcParams.update({"svg.hashsalt": "experiments", "figure.dpi": 100, "savefig.dpi": 150,
                     "axes.grid": True, "grid.alpha": 0.3, "font.size": 9})


def load(name):
    with open(os.path.join(OUT, name)) as f:
        return [json.loads(line) for line in f if line.strip()]


def short(path):
    return os.path.splitext(os.path.basename(path))[0]


def save(fig, name, out=OUT):
    """Saves `fig` as `name`.svg and .png in `out` (stable SVG) and closes it."""
    fig.tight_layout()
    for ext in ("svg", "png"):
        fig.savefig(os.path.join(out, f"{name}.{ext}"), metadata={"Date": None} if ext == "svg" else None)
    plt.close(fig)
    print(f"wrote {os.path.relpath(os.path.join(out, name))}.svg and .png")


def progress(start, best):
    """1 - d_m/d, or None where the start distance is unknown or zero."""
    if not start or best is None:
        return None
    return max(0.0, 1 - best / start)


def general_best(row):
    """The general settings as one method: the fewest positions among those that solved."""
    solved = [row["general"][n]["positions_examined"] for n in GENERAL if row["general"][n]["status"] == "solved"]
    return min(solved) if solved else None


def general_progress(row):
    values = [progress(row["general"][n].get("start_distance"), row["general"][n].get("best_distance")) for n in GENERAL]
    values = [v for v in values if v is not None]
    return max(values) if values else None


def start_distance(row):
    return next((g["start_distance"] for g in row["general"].values() if g.get("start_distance")), None)


def fig_8_2(rows):
    general = sorted(v for v in map(general_best, rows) if v is not None)
    reasoner = sorted(r["reasoner"]["positions"] for r in rows if r["reasoner"]["status"] == "solved")
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for values, label, marker in ((general, "general settings (best of four)", "s"), (reasoner, "meta-reasoner", "o")):
        ax.plot(range(1, len(values) + 1), values, marker=marker, markersize=3.5, linewidth=1.2,
                label=f"{label}: {len(values)} of {len(rows)} solved")
    ax.set_yscale("log")
    ax.set_xlabel("solved puzzles, sorted by increasing search effort")
    ax.set_ylabel("positions examined (log scale)")
    ax.set_title("Fig. 8.2: positions examined for solved puzzles, two methods and all puzzles")
    ax.legend(loc="upper left")
    save(fig, "fig8_2_positions_solved")


def fig_8_4(rows):
    general = sorted(p for r in rows if general_best(r) is None and (p := general_progress(r)) is not None)
    reasoner = sorted(p for r in rows if r["reasoner"]["status"] != "solved"
                      and (p := progress(start_distance(r), r["reasoner"].get("best"))) is not None)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for values, label, marker in ((general, "general settings (best of four)", "s"), (reasoner, "meta-reasoner", "o")):
        ax.plot(range(1, len(values) + 1), values, marker=marker, markersize=4, linewidth=1.2,
                label=f"{label}: {len(values)} unsolved")
    ax.set_ylim(0, 1)
    ax.set_xlabel("unsolved puzzles, sorted by increasing progress")
    ax.set_ylabel("progress 1 - $d_m/d$")
    ax.set_title("Fig. 8.4: progress for unsolved puzzles, two methods and all puzzles")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.legend(loc="upper left")
    save(fig, "fig8_4_progress_unsolved")


def grouped_bars(ax, labels, series, log=False):
    """One group of bars per label, one bar per series (None: no bar)."""
    width = 0.8 / len(series)
    for j, (name, values) in enumerate(series.items()):
        xs = [i + (j - (len(series) - 1) / 2) * width for i, v in enumerate(values) if v is not None]
        ax.bar(xs, [v for v in values if v is not None], width=width, label=name)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=70, ha="right", fontsize=7)
    ax.set_xlim(-0.6, len(labels) - 0.4)
    if log:
        ax.set_yscale("log")


def positions_solved(rows):
    solved = sorted((r for r in rows if r["reasoner"]["status"] == "solved"), key=lambda r: r["reasoner"]["positions"])
    series = {n: [r["general"][n]["positions_examined"] if r["general"][n]["status"] == "solved" else None for r in solved]
              for n in GENERAL}
    series["reasoner (all attempts)"] = [r["reasoner"]["positions"] for r in solved]
    fig, ax = plt.subplots(figsize=(13, 5))
    grouped_bars(ax, [short(r["puzzle"]) for r in solved], series, log=True)
    ax.set_ylabel("positions examined (log scale); no bar: not solved")
    ax.set_title("Positions examined on the puzzles the reasoner solved, every method", loc="left")
    ax.legend(ncol=5, loc="lower right", fontsize=8, bbox_to_anchor=(1, 1))
    save(fig, "positions_solved")


def progress_unsolved(rows):
    unsolved = [r for r in rows if any(r["general"][n]["status"] != "solved" for n in GENERAL)]
    series = {n: [1.0 if r["general"][n]["status"] == "solved" else
                  progress(r["general"][n].get("start_distance"), r["general"][n].get("best_distance")) for r in unsolved]
              for n in GENERAL}
    series["reasoner"] = [1.0 if r["reasoner"]["status"] == "solved" else progress(start_distance(r), r["reasoner"].get("best"))
                          for r in unsolved]
    fig, ax = plt.subplots(figsize=(12, 4.5))
    grouped_bars(ax, [short(r["puzzle"]) for r in unsolved], series)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("progress 1 - $d_m/d$ (1: solved)")
    ax.set_title("Progress on the puzzles some general setting left unsolved", loc="left")
    ax.legend(ncol=5, loc="lower right", fontsize=8, bbox_to_anchor=(1, 1))
    save(fig, "progress_unsolved")


def encodings(rows):
    both = [r for r in rows if "rank" in r and "packed" in r and r["rank"]["stored"] > 1000]
    both.sort(key=lambda r: r["rank"]["bytes_per_position"])
    series = {enc: [r[enc]["bytes_per_position"] for r in both] for enc in ("rank", "packed")}
    fig, ax = plt.subplots(figsize=(12, 4.5))
    grouped_bars(ax, [short(r["puzzle"]) for r in both], series, log=True)
    ax.set_ylabel("bytes per stored position (log scale)")
    ax.set_title("Bytes per stored position, permutation rank against packed (puzzles storing over 1,000 positions)")
    ax.legend(loc="upper left")
    save(fig, "encodings")


def main():
    rows = load("reasoner_vs_general.jsonl")
    fig_8_2(rows)
    fig_8_4(rows)
    positions_solved(rows)
    progress_unsolved(rows)
    encodings(load("encodings.jsonl"))


if __name__ == "__main__":
    main()
