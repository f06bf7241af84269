#!/usr/bin/env bash
# Side by side: `vortex4j convert` of the 10M-row trades sample from Parquet against the
# reference writer (vortex-data 0.90's Python `vortex.io.write` of the same Arrow table).
# Not in CI. Usage: bench/convert/run.sh [ROWS] [RUNS]   (defaults 10000000, 3)
# BASELINE_LIB=/path/libvortex4j.so adds a third contender in each round: `vortex4j convert` with
# that native library (e.g. a copy of the library before a change), for before/after ratios.
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
echo "source: $(du -h "$work/trades.parquet" | cut -f1) Parquet, $rows rows; $runs rounds, contenders alternating"
log="$work/run.log"
: > "$log"
# The seconds of a `vortex4j convert` run: the conversion's own time as the CLI prints it
# ("... in 4.21 s"; JVM start-up excluded).
convert_s() { sed -n 's/.* in \([0-9.]*\) s$/\1/p' | tail -1; }
for i in $(seq "$runs"); do
  rm -f "$work/ours.vortex"
  # CPU seconds of the whole process (JVM start-up included), by /usr/bin/time.
  out="$(/usr/bin/time -f 'cpu %U %S' "$root/bin/vortex4j" convert "$work/trades.parquet" "$work/ours.vortex" 2>&1)"
  ours="$(convert_s <<<"$out")"
  ours_cpu="$(awk '/^cpu /{ print $2 + $3 }' <<<"$out")"
  ref="$("$venv/bin/python" "$root/bench/convert/reference_write.py" "$work/trades.parquet" "$work/reference.vortex" 1)"
  base=""
  if [[ -n "${BASELINE_LIB:-}" ]]; then
    rm -f "$work/base.vortex"
    base="$(VORTEX4J_JAVA_OPTS="-Dvortex4j.library=$BASELINE_LIB" "$root/bin/vortex4j" convert \
        "$work/trades.parquet" "$work/base.vortex" 2>&1 | convert_s)"
  fi
  read_s="$(sed -n 's/.*read_s=\([0-9.]*\).*/\1/p' <<<"$ref")"
  write_s="$(sed -n 's/.*write_s=\([0-9.]*\).*/\1/p' <<<"$ref")"
  write_cpu="$(sed -n 's/.*write_cpu_s=\([0-9.]*\).*/\1/p' <<<"$ref")"
  echo "$i $ours $read_s $write_s ${base:--}" >> "$log"
  printf 'round %d: convert %s s (CPU %s s, whole process) | reference read %s s + write %s s (write CPU %s s)%s\n' \
      "$i" "$ours" "$ours_cpu" "$read_s" "$write_s" "$write_cpu" "${base:+ | baseline convert $base s}"
done
# Throughput ratios (rows/s of ours ÷ rows/s of theirs = their seconds ÷ ours).
awk '{ w = $4 / $2; rw = ($3 + $4) / $2; printf "round %d: convert ÷ reference write-only %.2fx, ÷ reference read+write %.2fx", $1, w, rw;
       if ($5 != "-") printf ", ÷ baseline convert %.2fx", $5 / $2; printf "\n" }' "$log"
ls -l "$work/ours.vortex" "$work/reference.vortex"
