#!/bin/bash
# Re-runs the three searches that finish Sunshine from the end of stage e16 (master at row 9, 3s at rows 14-18).
# Run from a scratch copy of the scripts folder:
#   R=$PWD; cp -r experiments/sunshine/scripts /tmp/x && (cd /tmp/x && REPO=$R bash run_final.sh)   (from the repository root;
# STAGES=dir overrides where the stored stage solutions are read)
# Deterministic: s2 stops on --max-positions (7M), not on time; about 2 min in all.
set -e
STG=${STAGES:-$(cd "$(dirname "$0")/../stages" 2>/dev/null && pwd || true)}
[ -f "$STG/e16.sol" ] || STG=$REPO/experiments/sunshine/stages
st(){ python3 st.py "$@" | grep -E "solved|limit|no_sol"; }
F="--algorithm fluid --heuristic h0 --weight 2"
OLD="d1f e1 e2 e3 e4 e5 e6 e7 e8 e9 e10 e11 e12 e13 gr1 gr2 e15a e15d1 e15e e16"
for n in $OLD; do cp "$STG/$n.sol" .; done
python3 ends.py "$STG" d1f e1 e2 e3 e4 e5 e6 e7 e8 e9 e10 e11 e12 e13 gr1 gr2 e15a e15d1 e15e e16
# s2: fluid toward all 16 2x2 blocks in aligned side pairs (not reached, best distance 3); its best-out path is kept as s2b
LIM=7000000 TL=1000 st s2 e16.end "[(14,1,20,15)]" "[[('h',r,c) for r in (6,8,10,12) for c in (1,3,12,14)]]" $F || true
python3 bestpath.py s2.best.json e16.end s2b
# s3: left side 8 2x2 blocks (rows 10-11 at cols 1 and 4), right side kept, then the master to row 5
LIM=8000000 TL=300 st s3 s2b.end "[(14,1,20,15)]" "[[('h',6,1),('h',6,3),('h',8,1),('h',8,3),('h',10,1),('h',10,4),('h',12,1),('h',12,3)]+[('h',r,c) for r in (6,8,10,12) for c in (12,14)],[('@',5,7)]]" $F
# s4: the master out through the door to the level's goal
LIM=1000000 TL=60 st s4 s3.end "[(14,1,20,15)]" "[[('@',0,7)]]"
./cat.sh solution.sol d1f e1 e2 e3 e4 e5 e6 e7 e8 e9 e10 e11 e12 e13 gr1 gr2 e15a e15d1 e15e e16 s2b s3 s4
