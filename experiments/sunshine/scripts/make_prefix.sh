#!/bin/bash
# Concatenate the stored stage solutions (../stages) into the prefix and check it against the original level.
cd "$(dirname "$0")/../stages"
order="d1f e1 e2 e3 e4 e5 e6 e7 e8 e9 e10 e11 e12 e13 gr1 gr2 e15a e15d1 e15e e16 e17"
: > ../prefix_m8.sol; for s in $order; do grep -v '^%' $s.sol | grep -v '^$' >> ../prefix_m8.sol; done
ROOT=$(cd ../../.. && pwd)
$ROOT/target/release/solver verify $ROOT/puzzles/klotski/sunshine.txt ../prefix_m8.sol | head -1
cd ../scripts && python3 vprefix.py ../prefix_m8.sol "[('@',8,7)]"
