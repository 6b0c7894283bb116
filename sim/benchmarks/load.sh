#!/usr/bin/env bash
# Load benchmark: can a platform hold NP simulated ranks? Runs
# sim/benchmarks/load_barrier.c (start, one MPI_Barrier, finish) through
# `collsim bench`'s placement and SMPI settings (COLLSIM_DRIVER swaps the
# driver for it), and prints its line with wall time, CPU time and peak RSS.
#
# usage: sim/benchmarks/load.sh [PLATFORM] [NP] [MAPPING]
#   e.g. sim/benchmarks/load.sh theta 32768
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
platform="${1:-theta}" np="${2:-32768}" map="${3:-sequential}"
cli="${COLLSIM_CLI:-$root/build/collsim-cli}"
[ -x "$cli" ] || { echo "build first: ./collsim help" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
smpicc -O2 -o "$work/load_barrier" "$root/sim/benchmarks/load_barrier.c"
mkdir "$work/tmp"
# bench then finds no result rows and says so (exit 1): expected, the line
# below is what counts
COLLSIM_DRIVER="$work/load_barrier" TMPDIR="$work/tmp" /usr/bin/time -o "$work/time" \
  -f "%e s wall, %U + %S s CPU, peak RSS %M KB" \
  "$cli" bench --platform "$platform" --np "$np" --map "$map" --alg bruck --sizes 1 --fold \
  >"$work/out" 2>&1 || true
if ! grep -q "ranks up" "$work/out"; then
  echo "load: $platform did not run $np ranks:" >&2
  cat "$work/out" >&2
  exit 1
fi
echo "load: $platform, $np ranks, $map: $(grep 'ranks up' "$work/out"); $(tail -1 "$work/time")"
