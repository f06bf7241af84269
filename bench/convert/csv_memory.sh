#!/usr/bin/env bash
# Peak memory of `vortex4j convert` on a generated 5 GB CSV (the trades sample exported to CSV,
# repeated). Not in CI. Usage: bench/convert/csv_memory.sh [GB]   (default 5)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
gb="${1:-5}"
work="${BENCH_DIR:-/tmp/vortex4j-convert-bench}"
mkdir -p "$work"
if [[ ! -f "$work/trades.vortex" ]]; then
  "$root/bin/vortex4j" generate trades "$work" --rows 10000000
fi
if [[ ! -f "$work/trades.csv" ]]; then
  "$root/bin/vortex4j" export "$work/trades.vortex" --format csv "$work/trades.csv"
fi
big="$work/big.csv"
if [[ ! -f "$big" ]] || (( $(stat -c %s "$big") < gb * 1000000000 )); then
  head -n 1 "$work/trades.csv" > "$big"
  while (( $(stat -c %s "$big") < gb * 1000000000 )); do
    tail -n +2 "$work/trades.csv" >> "$big"
  done
fi
echo "input: $(stat -c %s "$big") bytes"
rm -f "$work/big.vortex"
/usr/bin/time -v "$root/bin/vortex4j" convert "$big" "$work/big.vortex" 2> "$work/time.txt" || { cat "$work/time.txt"; exit 1; }
grep -E "converting|Maximum resident|Elapsed" "$work/time.txt"
ls -l "$work/big.vortex"
