#!/usr/bin/env bash
# Reruns every experiment: builds the release binaries, then experiments/run.py
# writes tables and raw results into experiments/results/, and
# experiments/plot.py draws the figures (SVG and PNG) from those results.
# Environment: LIMIT, ATTEMPTS, FINAL_TIMEOUT, QUICK=1, TABLES_ONLY=1 (see run.py).
# To redraw the figures alone, from the results already there:
#   python3 experiments/plot.py
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bins
python3 experiments/run.py
python3 experiments/plot.py
