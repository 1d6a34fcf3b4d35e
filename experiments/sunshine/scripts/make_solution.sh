#!/bin/bash
# Concatenate the stored stage solutions (../stages) into the full Sunshine solution,
# experiments/results/sunshine.sol (which a test replays), and verify it on the level (cat.sh).
# Stages d1f..e16 are the previous chain (master at row 9, both 3s at rows 14-18); s2b, s3, s4 finish it.
cd "$(dirname "$0")/../stages"
bash ../scripts/cat.sh ../../results/sunshine.sol d1f e1 e2 e3 e4 e5 e6 e7 e8 e9 e10 e11 e12 e13 gr1 gr2 e15a e15d1 e15e e16 s2b s3 s4
