#!/usr/bin/env bash
# Side by side: `vortex4j convert` of the 10M-row trades sample from Parquet against the
# reference writer (vortex-data 0.90's Python `vortex.io.write` of the same Arrow table).
# Not in CI. Usage: bench/convert/run.sh [ROWS] [RUNS]   (defaults 10000000, 3)
# BENCH_DIR: where the sample, the outputs and the Python venv go (default /tmp/vortex4j-convert-bench).
# BASELINE_LIB=/path/libvortex4j.so adds a third contender in each round: `vortex4j convert` with
# that native library (e.g. a copy of the library before a change), for before/after ratios.
#
# Each round runs the contenders one after the other, in turn first (odd rounds ours, even rounds
# the reference), and measures for each (docs/convert.md, "Benchmarks"):
#   ours, whole process: `vortex4j convert` under /usr/bin/time (JVM start-up, Parquet read and
#     decode, Vortex write, fsync): wall-clock, CPU (user + system, every thread), peak RSS;
#   ours, in process: what `convert --timing` prints, from opening the Parquet file to the closed
#     .vortex file (JVM start-up excluded): wall-clock, and the CPU of the process meanwhile;
#   reference: reference_write.py's pyarrow read and `vortex.io.write`, each wall-clock and CPU
#     (in process; Python start-up and imports excluded), and its whole process under /usr/bin/time.
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
# The launcher builds what changed and records its class-data archive on its first run after a
# build (seconds of CPU): do that before the rounds, not inside the first one.
"$root/bin/vortex4j" --version >/dev/null
echo "source: $(du -h "$work/trades.parquet" | cut -f1) Parquet, $rows rows; $runs rounds, contenders alternating; $(uptime)"
log="$work/run.log"
: > "$log"
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" | tail -1; }
# `vortex4j convert --timing` with the given extra JVM options: "whole_s whole_cpu_s rss_mb in_s in_cpu_s".
ours() {
  local out="$1"; shift
  rm -f "$out"
  local text
  text="$(VORTEX4J_JAVA_OPTS="${1:-}" /usr/bin/time -f 'process: wall_s=%e user=%U sys=%S rss_kb=%M' \
      "$root/bin/vortex4j" convert --timing "$work/trades.parquet" "$out" 2>&1)"
  local user sys rss
  user="$(field user <<<"$text")"; sys="$(field sys <<<"$text")"; rss="$(field rss_kb <<<"$text")"
  echo "$(field 'process: wall_s' <<<"$text") $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') $((rss / 1024)) \
$(sed -n 's/^timing: wall_s=\([0-9.]*\).*/\1/p' <<<"$text") $(field cpu_s <<<"$text")"
}
# The reference in one Python process: "read_s write_s read_cpu_s write_cpu_s whole_s whole_cpu_s rss_mb".
reference() {
  local text user sys rss
  text="$(/usr/bin/time -f 'process: wall_s=%e user=%U sys=%S rss_kb=%M' \
      "$venv/bin/python" "$root/bench/convert/reference_write.py" "$work/trades.parquet" "$work/reference.vortex" 1 2>&1)"
  user="$(field user <<<"$text")"; sys="$(field sys <<<"$text")"; rss="$(field rss_kb <<<"$text")"
  echo "$(field read_s <<<"$text") $(field write_s <<<"$text") $(field read_cpu_s <<<"$text") $(field write_cpu_s <<<"$text") \
$(field 'process: wall_s' <<<"$text") $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') $((rss / 1024))"
}
for i in $(seq "$runs"); do
  if (( i % 2 == 1 )); then
    o="$(ours "$work/ours.vortex")"; r="$(reference)"
  else
    r="$(reference)"; o="$(ours "$work/ours.vortex")"
  fi
  b="- - - - -"
  if [[ -n "${BASELINE_LIB:-}" ]]; then
    b="$(ours "$work/base.vortex" "-Dvortex4j.library=$BASELINE_LIB")"
  fi
  echo "$i $o $r $b" >> "$log"
  read -r _ ow oc om oi oic rr rw rrc rwc rpw rpc rm bw bc bm bi bic <<<"$i $o $r $b"
  printf 'round %d: ours whole process %s s (CPU %s s, peak %s MB), in process %s s (CPU %s s) | reference read %s s (CPU %s s) + write %s s (CPU %s s), whole process %s s (CPU %s s, peak %s MB)%s\n' \
      "$i" "$ow" "$oc" "$om" "$oi" "$oic" "$rr" "$rrc" "$rw" "$rwc" "$rpw" "$rpc" "$rm" \
      "$( [[ "$bw" != - ]] && printf ' | baseline whole process %s s (CPU %s s, peak %s MB), in process %s s (CPU %s s)' "$bw" "$bc" "$bm" "$bi" "$bic")"
done
# Throughput ratios (rows/s of ours ÷ rows/s of theirs = their seconds ÷ ours); above 1: ours is faster.
echo "throughput ratios (their seconds ÷ ours):"
awk '{ printf "round %d: in process ÷ reference write %.2fx, ÷ reference read+write %.2fx | whole process ÷ reference whole process %.2fx, ÷ reference write %.2fx | reference write CPU ÷ ours in process %.2fx",
         $1, $8 / $5, ($7 + $8) / $5, $11 / $2, $8 / $2, $10 / $6;
       if ($14 != "-") printf " | ÷ baseline: in process %.2fx, whole process %.2fx", $17 / $5, $14 / $2; printf "\n" }' "$log"
ls -l "$work/ours.vortex" "$work/reference.vortex"
