#!/usr/bin/env bash
# TPC-H data for the TPC-H test and benchmark. Usage: bench/tpch/generate.sh DIR SF
# Writes DIR/tpch-sf<SF>/parquet/<table>.parquet with tpchgen-cli (PyPI package tpchgen-cli:
# decimals as DECIMAL(15, 2), dates as DATE) and converts each into
# DIR/tpch-sf<SF>/vortex/<table>.vortex with `vortex4j convert`. Files that exist are kept, so a
# second run does nothing. (The test and `bin/bench tpch` do the same in Java: io.vortex4j.tpch.TpchData.)
set -euo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 DIR SF   (e.g. $0 ~/.cache/vortex4j/tpch 1)" >&2
  exit 2
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# The scale factor as the folder names it: 1.0 and 1 are both tpch-sf1, 0.010 is tpch-sf0.01.
sf="$(python3 -c 'import sys, decimal; d = decimal.Decimal(sys.argv[1]); assert d > 0, "scale factor must be positive"; print(format(d.normalize(), "f"))' "$2")"
base="$1/tpch-sf$sf"
tables=(region nation supplier customer part partsupp orders lineitem)

tpchgen="${TPCHGEN_CLI:-}"
if [[ -z "$tpchgen" ]]; then
  tpchgen="$(command -v tpchgen-cli || true)"
fi
if [[ -z "$tpchgen" ]]; then
  # pip install --user puts it in the user's script folder, often not on PATH.
  for d in $(python3 -c 'import site, sysconfig; print(sysconfig.get_path("scripts")); print(site.USER_BASE + "/bin")' 2>/dev/null) "$HOME/.local/bin"; do
    if [[ -x "$d/tpchgen-cli" ]]; then tpchgen="$d/tpchgen-cli"; break; fi
  done
fi

missing=()
for t in "${tables[@]}"; do
  [[ -f "$base/parquet/$t.parquet" ]] || missing+=("$t")
done
if ((${#missing[@]})); then
  if [[ -z "$tpchgen" ]]; then
    echo "tpchgen-cli is not installed: python3 -m pip install --user tpchgen-cli" \
      "(or python3 -m pip install --break-system-packages tpchgen-cli), or set TPCHGEN_CLI" >&2
    exit 1
  fi
  mkdir -p "$base/parquet"
  scratch="$(mktemp -d "$base/.generating-XXXXXX")"
  trap 'rm -rf "$scratch"' EXIT
  echo "generating TPC-H SF $sf (${missing[*]}) into $base/parquet" >&2
  (IFS=,; "$tpchgen" parquet --scale-factor "$sf" --tables "${missing[*]}" --output-dir "$scratch" --quiet --no-progress)
  for t in "${missing[@]}"; do
    mv "$scratch/$t.parquet" "$base/parquet/$t.parquet"
  done
fi

mkdir -p "$base/vortex"
for t in "${tables[@]}"; do
  if [[ ! -f "$base/vortex/$t.vortex" ]]; then
    echo "converting $t to $base/vortex/$t.vortex" >&2
    # Written under $t.vortex.partial and renamed when complete.
    "$root/bin/vortex4j" convert "$base/parquet/$t.parquet" "$base/vortex/$t.vortex" >/dev/null
  fi
done
echo "$base"
