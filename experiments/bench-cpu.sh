#!/bin/sh
# Single-core BFS throughput by CPU time, for experiments/bench.md: on a
# shared machine wall time depends on the other jobs, the CPU time a run
# takes much less. Usage: experiments/bench-cpu.sh [SOLVER] (default
# target/release/solver); needs perf (linux-tools) and ../shared/dev-puzzles.
# Prints one markdown row per run: what, positions examined and stored,
# CPU seconds (perf stat task-clock), positions examined per CPU second,
# peak resident bytes per stored position (/usr/bin/time).
set -eu
S=${1:-target/release/solver}
row() {
  label=$1; shift
  out=$(mktemp); stat=$(mktemp); rss=$(mktemp)
  /usr/bin/time -f %M -o "$rss" perf stat -x, -e task-clock -o "$stat" "$S" "$@" --json >"$out" || true
  python3 - "$label" "$out" "$stat" "$rss" <<'PY'
import json, sys
label, out, stat, rss = sys.argv[1:]
runs = [json.loads(l) for l in open(out) if l.strip()]
examined = sum(r["positions_examined"] for r in runs)
stored = sum(r.get("positions", r.get("positions_stored", 0)) for r in runs)
ms = float(next(l for l in open(stat) if "task-clock" in l).split(",")[0])
peak = int(open(rss).read().split()[-1]) * 1024
enc = ",".join(sorted({r.get("encoding", "-") for r in runs}))
print(f"| {label} | {enc} | {examined} | {stored} | {ms/1000:.2f} | {examined/ms*1000:,.0f} | {peak/max(stored,1):.1f} |")
PY
  rm -f "$out" "$stat" "$rss"
}
echo "| run | encoding | examined | stored | CPU s | positions/CPU s | RSS bytes/stored |"
echo "|---|---|---|---|---|---|---|"
for e in rank packed; do
  row "10^6 steps $e" count puzzles/bench/bench_1e6.txt --encoding $e
  row "10^7 steps $e" count puzzles/bench/bench_1e7.txt --encoding $e
  row "15-puzzle 5M steps $e" count puzzles/tiles/korf_01.txt --max-positions 5000000 --encoding $e
  row "10^6 moves $e" count puzzles/bench/bench_1e6.txt --metric moves --encoding $e
  row "10^7 moves $e" count puzzles/bench/bench_1e7.txt --metric moves --encoding $e
  row "Sunshine 100k steps $e" count puzzles/klotski/sunshine.txt --max-positions 100000 --encoding $e
done
row "Rush Hour 95 dev, moves, auto" solve ../shared/dev-puzzles/rushhour_dev.txt --from rush --metric moves
row "Rush Hour 95 dev, moves, packed" solve ../shared/dev-puzzles/rushhour_dev.txt --from rush --metric moves --encoding packed
row "Rush Hour 95 dev, first position only" solve ../shared/dev-puzzles/rushhour_dev.txt --from rush --metric moves --max-positions 1
