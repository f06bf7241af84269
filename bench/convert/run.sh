#!/usr/bin/env bash
# Side by side: `vortex4j convert` of the 10M-row trades sample from Parquet against the
# reference writer (vortex-data 0.90's Python `vortex.io.write` of the same Arrow table).
# Not in CI. Usage: bench/convert/run.sh [ROWS] [RUNS]   (defaults 10000000, 3)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
rows="${1:-10000000}"
runs="${2:-3}"
work="${BENCH_DIR:-/tmp/vortex4j-convert-bench}"
mkdir -p "$work"
venv="$work/venv"
if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q vortex-data==0.90.0 pyarrow
fi
if [[ ! -f "$work/trades.parquet" ]]; then
  "$root/bin/vortex4j" generate trades "$work" --rows "$rows"
  "$root/bin/vortex4j" export "$work/trades.vortex" --format parquet "$work/trades.parquet"
fi
echo "source: $(du -h "$work/trades.parquet" | cut -f1) Parquet, $rows rows; $runs runs each, alternating"
for i in $(seq "$runs"); do
  rm -f "$work/ours.vortex"
  # The CLI prints the conversion's own time (JVM start-up excluded).
  "$root/bin/vortex4j" convert "$work/trades.parquet" "$work/ours.vortex" 2>&1 | sed 's/^/vortex4j  /'
  "$venv/bin/python" "$root/bench/convert/reference_write.py" "$work/trades.parquet" "$work/reference.vortex" 1 | sed 's/^/reference /'
done
ls -l "$work/ours.vortex" "$work/reference.vortex"
