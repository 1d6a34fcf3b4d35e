#!/bin/bash
# BFWS (novelty) over the fluid abstraction vs weighted A* (fluid), one solver at a time.
# Needs a clone with bfws.diff applied (git apply), built: cargo build --release --bins.
#   REPO=/path/to/clone OUT=/tmp/bfws/runs bash run.sh all      # every run of README.md (about 50 min)
#   REPO=... bash run.sh setup                                  # writes $OUT/sunshine_setup.txt
#   REPO=... bash run.sh one NAME PUZZLE MODE HEURISTIC [WEIGHT]
# MODE: astar (weighted A*, the baseline), bfws (SBP_FLUID_BFWS=1), and the controls
#   w1 (novelty 1 only, SBP_FLUID_BFWS=w1) and gbfs (greedy best-first on h alone, SBP_FLUID_BFWS=gbfs);
#   --weight is read by astar only.
# Sunshine from the hand setup: start = the position after experiments/sunshine/stages/d1f.sol e1.sol
# e2.sol (350 steps), goal the level's; written with experiments/sunshine/scripts/pz.py.
REPO=${REPO:?set REPO to the clone with bfws.diff applied, built with cargo build --release --bins}
OUT=${OUT:-/tmp/bfws/runs}; TL=${TL:-120}
mkdir -p "$OUT"
S=$REPO/target/release/solver
K=$REPO/puzzles/klotski

setup() {
  cd $REPO/experiments/sunshine/scripts
  cat ../stages/d1f.sol ../stages/e1.sol ../stages/e2.sol > $OUT/setup.sol
  REPO=$REPO python3 - $OUT <<'PY'
import sys; sys.path.insert(0,'.')
import pz
out=sys.argv[1]
h,start,goals=pz.read(pz.ORIG)
g=pz.replay(start,pz.shapes(h),open(out+'/setup.sol').read().split('\n'))
pz.write(out+'/sunshine_setup.txt',h,g,goals,name='sunshine after the hand setup (d1f e1 e2, 350 steps)')
PY
  cd - >/dev/null
}

one() {
  local name=$1 pzl=$2 mode=$3 heur=$4 w=${5:-1}
  ( case $mode in
      bfws) export SBP_FLUID_BFWS=1;; w1|gbfs) export SBP_FLUID_BFWS=$mode;;
      astar) unset SBP_FLUID_BFWS;; *) echo "MODE: astar, bfws, w1 or gbfs"; exit 2;;
    esac
    rm -f $OUT/$name.sol
    nice -n 10 $S solve $pzl --algorithm fluid --heuristic $heur --weight $w --time-limit $TL --threads 1 \
      --max-memory 6G --json --solution $OUT/$name.sol > $OUT/$name.json 2> $OUT/$name.err )
  python3 - $OUT/$name.json $name <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))
print(sys.argv[2],{k:d.get(k) for k in ['status','steps','start_distance','best_distance','positions_examined','positions_stored','elapsed_ms','limit']})
PY
  grep '^bfws' $OUT/$name.err
  if [ -s $OUT/$name.sol ]; then $S verify $pzl $OUT/$name.sol; fi
}

all() {
  setup
  for m in "bfws h0" "bfws path" "astar h0 2" "astar path 3" "gbfs h0" "gbfs path" "w1 h0" "w1 path"; do
    set -- $m; one sun_${1}_$2 $K/sunshine.txt $m
  done
  for m in "bfws h0" "bfws path" "astar h0 2" "astar path 3" "gbfs h0" "gbfs path"; do
    set -- $m; one set_${1}_$2 $OUT/sunshine_setup.txt $m
  done
  for lv in american_pie ithaca transeuropa; do
    for m in "bfws h0" "bfws path" "astar h0 2" "astar path 3" "gbfs h0" "gbfs path"; do
      set -- $m; one ${lv}_${1}_$2 $K/$lv.txt $m
    done
  done
  # the Sunshine+setup solution replayed on the level itself
  cat $OUT/setup.sol $OUT/set_bfws_path.sol > $OUT/setup_plus_bfws_path.sol
  $S verify $K/sunshine.txt $OUT/setup_plus_bfws_path.sol
}

cmd=$1; shift
case $cmd in setup) setup;; one) one "$@";; all) all;; *) echo "usage: run.sh all | setup | one NAME PUZZLE MODE HEURISTIC [WEIGHT]"; exit 2;; esac
