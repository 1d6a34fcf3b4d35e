#!/bin/bash
# Concatenate the stored stage solutions (../stages) into the prefix and check it against the original level
# (cat.sh), then against the waypoint it reaches (the master at row 8).
# The earlier waypoints are prefixes of the same chain: the stages up to e7 (master at row 13), e13 (row 10)
# and e15e (row 9).
cd "$(dirname "$0")/../stages"
bash ../scripts/cat.sh ../prefix_m8.sol d1f e1 e2 e3 e4 e5 e6 e7 e8 e9 e10 e11 e12 e13 gr1 gr2 e15a e15d1 e15e e16 e17
cd ../scripts && python3 vprefix.py ../prefix_m8.sol "[('@',8,7)]"
