#!/bin/bash
# usage: run.sh NAME [solver args...]
name=$1; shift
cd /tmp/hD/repo
nice -n 10 ./target/release/solver solve ${PZ:-puzzles/klotski/sunshine.txt} --algorithm fluid --time-limit ${TL:-120} --threads 1 --max-memory 6G --json --best-out /tmp/hD/runs/$name.best --best-count 3 "$@" > /tmp/hD/runs/$name.json 2> /tmp/hD/runs/$name.err
python3 - $name <<'PY'
import json,sys
n=sys.argv[1]
d=json.load(open(f'/tmp/hD/runs/{n}.json'))
print(n,{k:d.get(k) for k in ['status','steps','best_distance','best_distance_positions','positions_examined','positions_stored','elapsed_ms','limit']})
try:
  b=json.load(open(f'/tmp/hD/runs/{n}.best'))
  p=b['positions'][0]; print('best steps',p['steps']); print(p['puzzle'].split('!\n')[2])
except Exception as e: print(e)
PY
