#!/bin/bash
# usage: REPO=/path/to/a/clone/with/channel.diff/applied OUT=/tmp/runs run.sh NAME [solver args...]
# (the clone built with `cargo build --release --bins`; results in $OUT)
name=$1; shift
OUT=${OUT:-/tmp/channel-runs}
mkdir -p "$OUT"
cd "${REPO:?set REPO to the clone with channel.diff applied}"
nice -n 10 ./target/release/solver solve ${PZ:-puzzles/klotski/sunshine.txt} --algorithm fluid --time-limit ${TL:-120} --threads 1 --max-memory 6G --json --best-out $OUT/$name.best --best-count 3 "$@" > $OUT/$name.json 2> $OUT/$name.err
OUT=$OUT python3 - $name <<'PY'
import json,sys,os
n=sys.argv[1]
d=json.load(open(os.path.join(os.environ['OUT'],n+'.json')))
print(n,{k:d.get(k) for k in ['status','steps','best_distance','best_distance_positions','positions_examined','positions_stored','elapsed_ms','limit']})
try:
  b=json.load(open(os.path.join(os.environ['OUT'],n+'.best')))
  p=b['positions'][0]; print('best steps',p['steps']); print(p['puzzle'].split('!\n')[2])
except Exception as e: print(e)
PY
