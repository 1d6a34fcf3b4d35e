#!/usr/bin/env bash
# Runs the puzzle collection as a Slurm job array and merges what the tasks
# found: the reports into one JSON Lines file, the retained cases into one
# case base (`reasoner casebase merge`), then checks that every solved puzzle
# has exactly one case.
#
#   bash experiments/slurm/run-collection.sh                  # every puzzle of puzzles/
#   TASKS=2 LIMIT=100000 bash experiments/slurm/run-collection.sh puzzles/klotski/*.txt
#
# Needs a working Slurm (sbatch; on one machine see setup-local-slurm.sh) and a
# working directory the compute nodes share. Environment:
#
# | variable | meaning | default |
# |---|---|---|
# | TASKS | array tasks (puzzles are dealt round-robin) | 2 |
# | LIMIT | positions per limited attempt | 1000000 |
# | ATTEMPTS | attempts before the final run | 6 |
# | FINAL_TIMEOUT | seconds for the final run | 10 |
# | MAX_MEMORY | the solver's --max-memory | 1G |
# | SEED_CASEBASE | each task's starting case base | casebase/seed.toml |
# | OUT | where everything is written | experiments/results/slurm |
# | REASONER | the reasoner binary (its solver beside it) | target/release/reasoner, built first |
#
# Output in $OUT: puzzles.txt, results-I.jsonl and casebase-I.toml per task,
# task-I.log (Slurm's output), and the merged results.jsonl, casebase.toml and
# summary.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
export TASKS=${TASKS:-2} LIMIT=${LIMIT:-1000000} ATTEMPTS=${ATTEMPTS:-6}
export FINAL_TIMEOUT=${FINAL_TIMEOUT:-10} MAX_MEMORY=${MAX_MEMORY:-1G}
export SEED_CASEBASE=$(realpath -m "${SEED_CASEBASE:-casebase/seed.toml}")
export OUT=$(realpath -m "${OUT:-experiments/results/slurm}")
die() { echo "run-collection: $*" >&2; exit 2; }
command -v sbatch >/dev/null || die "sbatch not found; is Slurm installed? (see setup-local-slurm.sh)"
for v in TASKS LIMIT ATTEMPTS FINAL_TIMEOUT; do
    [[ ${!v} =~ ^[0-9]+$ && ${!v} -gt 0 ]] || die "$v must be a whole number above 0, not '${!v}'"
done
[ -s "$SEED_CASEBASE" ] || die "no seed case base at $SEED_CASEBASE"
if [ -z "${REASONER:-}" ]; then
    cargo build --release --bins
    REASONER=$PWD/target/release/reasoner
fi
export REASONER
mkdir -p "$OUT"
rm -f "$OUT"/results-*.jsonl "$OUT"/casebase-*.toml "$OUT"/task-*.log
if [ $# -gt 0 ]; then
    printf '%s\n' "$@"
else
    PYTHONPATH=experiments python3 -c 'import common; print("\n".join(common.puzzles()))'
fi >"$OUT/puzzles.txt"
echo "$(wc -l <"$OUT/puzzles.txt") puzzles in $TASKS array tasks, limit $LIMIT, $ATTEMPTS attempts"

# --wait: returns when every task has ended, non-zero if one failed. What the
# tasks finished is merged even then (each task's case base is only ever
# replaced atomically), and the run ends with exit 1.
failed=0
sbatch --wait --array=0-$((TASKS - 1)) --output="$OUT/task-%a.log" --export=ALL \
    experiments/slurm/collection.sbatch || failed=1

cat "$OUT"/results-*.jsonl | LC_ALL=C sort >"$OUT/results.jsonl"
"$REASONER" casebase merge "$SEED_CASEBASE" "$OUT"/casebase-*.toml -o "$OUT/casebase.toml"
python3 experiments/slurm/check_merged.py "$OUT/results.jsonl" "$OUT/casebase.toml" \
    | tee "$OUT/summary.txt"
if [ "$failed" = 1 ]; then
    echo "run-collection: a task of the job array failed; see $OUT/task-*.log" >&2
    exit 1
fi
