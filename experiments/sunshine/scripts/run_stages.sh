#!/bin/bash
# Re-runs every stage search of the verified 1031-step prefix (Sunshine, master at row 8), one solver at a time.
# Run from a scratch copy of this folder (it writes its stages' files there):
#   cp -r experiments/sunshine/scripts /tmp/x && (cd /tmp/x && REPO=$PWD bash run_stages.sh)
# (from the repository root). Uses the repository's target/release/solver (pz.py SOLVER). Each stage: puzzle = previous end position with the
# listed blocks frozen to walls (FREEZE rectangles: blocks with a cell inside become walls), goal = listed placements.
set -e
F="--algorithm fluid --heuristic h0 --weight 2"
st(){ python3 st.py "$@" | grep -E "solved|limit|no_sol"; }
RIGHT="(6,11,20,15)"
LIM=5000000  TL=150 st d1f  start.txt "[$RIGHT,(16,1,20,5),(6,1,10,5)]" "[[('h',6,7),('h',6,9),('h',8,7),('h',8,9),('h',10,7),('h',10,9),('h',12,7),('h',12,9)]]" $F
LIM=5000000  TL=200 st e1   d1f.end "[$RIGHT,(16,1,20,5)]" "[[('3',10,1),('h',8,1),('h',8,4),('h',6,1),('h',6,4),('h',6,7),('h',6,9),('h',8,7),('h',8,9),('h',10,7),('h',10,9),('h',12,7),('h',12,9),('J',6,6),('J',8,6),('G',15,6),('G',15,8)]]" $F
LIM=30000000 TL=120 st e2   e1.end  "[$RIGHT,(6,1,9,5),(6,6,15,10)]" "[[('h',16,1),('J',16,3),('h',16,4),('h',18,1),('J',18,3),('h',18,4),('G',20,1),('G',20,4)]]"
LIM=30000000 TL=120 st e3   e2.end  "[$RIGHT,(6,1,13,10),(16,1,20,5)]" "[[('@',15,7)]]"
LIM=30000000 TL=120 st e4   e3.end  "[$RIGHT,(6,1,9,10),(10,6,14,10),(15,6,15,6),(15,10,15,10)]" "[[('3',11,1)]]"
LIM=30000000 TL=120 st e5   e4.end  "[$RIGHT,(6,1,9,10),(16,1,20,5)]" "[[('@',14,7)]]" --lock 3
LIM=30000000 TL=120 st e6   e5.end  "[$RIGHT,(6,1,10,10),(11,6,15,10)]" "[[('3',12,1)]]"
LIM=30000000 TL=150 st e7   e6.end  "[$RIGHT,(6,1,7,10),(17,1,20,10)]" "[[('@',13,7)]]" --lock 3
LIM=30000000 TL=150 st e8   e7.end  "[(6,1,10,15),(11,1,12,10),(12,1,20,5),(13,6,13,6),(13,10,13,10)]" "[[('3',12,11)]]"
LIM=30000000 TL=150 st e9   e8.end  "[(6,1,7,15),(17,1,20,15)]" "[[('@',12,7)]]" --lock 3
LIM=30000000 TL=150 st e10  e9.end  "[(6,1,11,15),(12,6,12,6),(12,10,12,10),(12,11,16,15)]" "[[('3',13,1)]]"
LIM=40000000 TL=200 st e11  e10.end "[(6,1,7,15),(16,1,20,15)]" "[[('@',11,7)]]"
LIM=40000000 TL=200 st e12  e11.end "[(6,1,12,15)]" "[[('3',14,1)]]"
LIM=40000000 TL=200 st e13  e12.end "[(6,1,7,15),(15,1,20,15)]" "[[('@',10,7)]]"
# gr: A* toward a designed layout; not solved, its --best-out path (74 steps, distance 3) is kept as gr1
LIM=20000000 TL=150 st gr   e13.end "[(6,1,11,15),(12,1,18,5)]" "[[('0',14,6),('0',14,10),('J',15,6),('h',15,7),('J',15,9),('J',15,10),('h',17,6),('h',17,8),('0',17,10),('0',18,10),('h',19,5),('h',19,7),('G',19,9),('G',20,9),('3',13,11)]]" --algorithm astar --heuristic manhattan --weight 3 || true
python3 bestpath.py gr.best.json e13.end gr1
LIM=40000000 TL=150 st gr2  gr1.end "[(6,1,11,15),(12,1,18,5)]" "[[('3',13,11)]]"
LIM=30000000 TL=150 st e15a gr2.end "[(14,1,20,15),(6,1,7,15),(6,1,13,5)]" "[[('h',8,14),('h',8,11),('h',10,11),('h',10,14),('h',8,7)]]"
# e15d: fluid, first section (left column realigned) reached, second (master row 9) not; its best-out path is kept as e15d1
LIM=8000000  TL=200 st e15d e15a.end "[(14,1,20,15),(6,11,12,15)]" "[[('h',8,1),('h',8,3),('h',8,5),('h',10,4),('h',12,1),('h',12,4)],[('@',9,7)]]" $F || true
python3 bestpath.py e15d.best.json e15a.end e15d1
LIM=8000000  TL=200 st e15e e15d1.end "[(14,1,20,15)]" "[[('@',9,7)]]" $F
LIM=60000000 TL=240 st e16  e15e.end "[(6,1,12,15),(13,1,20,5)]" "[[('3',14,11)]]"
LIM=8000000  TL=200 st e17  e16.end "[(14,1,20,15)]" "[[('@',8,7)]]" $F
./cat.sh prefix.sol d1f e1 e2 e3 e4 e5 e6 e7 e8 e9 e10 e11 e12 e13 gr1 gr2 e15a e15d1 e15e e16 e17 >/dev/null
python3 vprefix.py prefix.sol "[('@',8,7)]"
