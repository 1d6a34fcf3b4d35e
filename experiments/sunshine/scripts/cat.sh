#!/bin/bash
# cat.sh OUT stage1 stage2 ...: concatenate stage solutions and verify against the original (its verdict line)
out=$1; shift
: > $out
for s in "$@"; do grep -v '^%' $s.sol | grep -v '^$' >> $out; done
ROOT=${REPO:-$(cd "$(dirname "$0")/../../.." && pwd)}
$ROOT/target/release/solver verify $ROOT/puzzles/klotski/sunshine.txt $out 2>&1 | head -1
