#!/usr/bin/env bash
# Reruns every experiment: builds the release binaries, then experiments/run.py
# writes tables, plots and raw results into experiments/results/.
# Environment: LIMIT, ATTEMPTS, FINAL_TIMEOUT, QUICK=1 (see run.py).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bins
python3 experiments/run.py
