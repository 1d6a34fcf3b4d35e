#!/bin/sh
# Single-core BFS throughput by CPU time, for experiments/bench.md: on a
# shared machine wall time depends on the other jobs, the CPU time a run
# takes much less. Usage: experiments/bench-cpu.sh [SOLVER] (default
# target/release/solver); needs perf (linux-tools) and ../shared/dev-puzzles.
# Prints one markdown row per run: what, positions examined and stored,
# CPU seconds (perf stat task-clock), positions examined per CPU second,
# peak resident bytes per stored position (/usr/bin/time). Then two
# wall-clock tables, which mean something only on an idle machine: one
# thread against two (best of 3 each), and the 10^7 count in memory
# against spilled under --max-memory 32M.
set -eu
S=${1:-target/release/solver}
row() {
  label=$1; shift
  out=$(mktemp); stat=$(mktemp); rss=$(mktemp)
  # time inside perf, so that the resident set is the solver's, not perf's.
  perf stat -x, -e task-clock -o "$stat" /usr/bin/time -f %M -o "$rss" "$S" "$@" --json >"$out" || true
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
# Keys wider than 128 bits at 1M positions (auto takes packed on all three):
# branching factors 8.9 (Sunshine), 24 (Ithaca) and 9.7 (American Pie).
for p in sunshine ithaca american_pie; do
  row "$p 1M steps auto" count puzzles/klotski/$p.txt --max-positions 1000000
done
# The same with sets (narrower keys: 319, 351 and 105 bits), and a whole
# Klotski-family count whose unit squares make sets narrower than the rank.
for p in sunshine ithaca american_pie; do
  row "$p 1M steps sets" count puzzles/klotski/$p.txt --max-positions 1000000 --encoding sets
done
for e in packed sets rank; do
  row "Daisy all steps $e" count puzzles/klotski/daisy.txt --encoding $e
done
# One board at a time (--jobs 1): CPU time comparable with earlier sessions.
row "Rush Hour 95 dev, moves, auto" solve ../shared/dev-puzzles/rushhour_dev.txt --from rush --metric moves --jobs 1
row "Rush Hour 95 dev, moves, packed" solve ../shared/dev-puzzles/rushhour_dev.txt --from rush --metric moves --encoding packed --jobs 1
row "Rush Hour 95 dev, first position only" solve ../shared/dev-puzzles/rushhour_dev.txt --from rush --metric moves --max-positions 1 --jobs 1

# Best wall seconds of 3 runs of the solver with these arguments.
wall() {
  best=
  for _ in 1 2 3; do
    t=$( { /usr/bin/time -f %e "$S" "$@" --json >/dev/null; } 2>&1 | tail -1)
    best=$(python3 -c "import sys; a=sys.argv[1:]; print(min(float(x) for x in a if x))" "$t" ${best:-})
  done
  echo "$best"
}
pair() {
  label=$1; shift
  one=$(wall "$@" --threads 1); two=$(wall "$@" --threads 2)
  python3 -c "import sys; l,a,b=sys.argv[1:]; print(f'| {l} | {a} | {b} | {float(a)/float(b):.2f}x |')" "$label" "$one" "$two"
}
echo
echo "| run (wall, best of 3) | 1 thread s | 2 threads s | speed-up |"
echo "|---|---|---|---|"
pair "10^6 steps packed" count puzzles/bench/bench_1e6.txt --encoding packed
pair "10^7 steps packed" count puzzles/bench/bench_1e7.txt --encoding packed
pair "15-puzzle 5M steps packed" count puzzles/tiles/korf_01.txt --max-positions 5000000 --encoding packed
pair "10^7 moves packed" count puzzles/bench/bench_1e7.txt --metric moves --encoding packed
pair "10^7 steps auto" count puzzles/bench/bench_1e7.txt
# A collection: one board at a time against two at once (--jobs).
rush1=$(wall solve ../shared/dev-puzzles/rushhour_dev.txt --from rush --metric moves --jobs 1)
rush2=$(wall solve ../shared/dev-puzzles/rushhour_dev.txt --from rush --metric moves --jobs 2)
python3 -c "import sys; a,b=sys.argv[1:]; print(f'| Rush Hour 95 dev, moves, auto, --jobs 1 / 2 | {a} | {b} | {float(a)/float(b):.2f}x |')" "$rush1" "$rush2"
spill=$(mktemp -d)
ram=$(wall count puzzles/bench/bench_1e7.txt)
disk=$(wall count puzzles/bench/bench_1e7.txt --max-memory 32M --spill "$spill")
rmdir "$spill"
echo
echo "| 10^7 count (wall, best of 3) | in memory s | --max-memory 32M --spill s | ratio |"
echo "|---|---|---|---|"
python3 -c "import sys; a,b=sys.argv[1:]; print(f'| auto | {a} | {b} | {float(b)/float(a):.2f}x |')" "$ram" "$disk"
