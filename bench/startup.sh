#!/usr/bin/env bash
# Start-up of the vortex4j command, whole process: the median wall time and peak memory of
# RUNS runs (default 5), and the median CPU time (user + system: steadier than wall on a busy
# machine), of each command, after one unmeasured run (builds what is missing).
#
#   bench/startup.sh [DIR]        # DIR holds trades.vortex (default ~/.cache/vortex4j/bench)
#   RUNS=9 bench/startup.sh
#   VORTEX4J_JAVA_OPTS=-Xshare:off bench/startup.sh   # without the class-data-sharing archive
#
# Not part of bin/test: timings on a shared machine are noisy, so compare rows of one run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:-$HOME/.cache/vortex4j/bench}"
runs="${RUNS:-5}"
file="$dir/trades.vortex"
[[ -f "$file" ]] || { echo "no $file (bin/vortex4j generate trades $dir --rows 10000000)" >&2; exit 1; }
cli="${VORTEX4J_CLI:-$root/bin/vortex4j}"   # VORTEX4J_CLI: another launcher, to compare

median() { printf '%s\n' "$@" | sort -g | sed -n "$(((${#@} + 1) / 2))p"; }

# One command, RUNS times: prints "wall_s cpu_s peak_MB" (medians).
measure() {
  local times=() cpus=() mems=() out tmp
  tmp="$(mktemp)"
  for ((i = 0; i < runs; i++)); do
    /usr/bin/time -o "$tmp" -f '%e %U %S %M' "$@" >/dev/null 2>&1
    read -r e u s m <<<"$(tail -1 "$tmp")"
    times+=("$e")
    cpus+=("$(echo "$u + $s" | bc)")
    mems+=("$m")
  done
  rm -f "$tmp"
  echo "$(median "${times[@]}") $(median "${cpus[@]}") $(($(median "${mems[@]}") / 1024))"
}

"$cli" --help >/dev/null   # build, extract the native library, write the archive
printf '| command | wall (median of %d) | CPU | peak memory |\n|---|---:|---:|---:|\n' "$runs"
row() {
  local label="$1"; shift
  read -r t c m <<<"$(measure "$@")"
  printf '| %s | %.2f s | %.2f s | %d MB |\n' "$label" "$t" "$c" "$m"
}
row '`--help`' "$cli" --help
row '`inspect FILE`' "$cli" inspect "$file"
row '`sql "SELECT 1"`' "$cli" sql --data "$dir" --format csv "SELECT 1"
row "\`sql \"SELECT COUNT(*) FROM trades WHERE sym = 'AAPL'\"\`" \
  "$cli" sql --data "$dir" --format csv "SELECT COUNT(*) FROM trades WHERE sym = 'AAPL'"
row "\`sql \"SELECT sym, COUNT(*) … WHERE sym IN (4) GROUP BY sym\"\`" \
  "$cli" sql --data "$dir" --format csv \
  "SELECT sym, COUNT(*) FROM trades WHERE sym IN ('AAPL', 'MSFT', 'IBM', 'NVDA') GROUP BY sym"
row '`java -version` (the JVM alone)' java -Xshare:auto -version
