#!/usr/bin/env bash
# Scale benchmark: a folded run of one allgather algorithm with many simulated
# ranks (default: 32,768 on the generic fat tree), printing wall time, the
# predicted time and the memory actually used.
#
# Memory: RSS counts a folded buffer once per mapping (every rank maps the same
# pages), so it overcounts. We sample, every second, the PSS of the simulation
# process (/proc/PID/smaps_rollup, shared pages divided among their users; one
# process here, so it is its true footprint) and the machine's used memory
# (MemTotal - MemAvailable) minus what was used before the run, and print the
# peaks of both with the peak RSS for comparison. The used-memory figure is
# only meaningful when nothing else runs on the machine. GB are 10^9 bytes, as
# in `bench`'s own estimate (its line "# memory: about ..." in the output);
# figures of this script before it printed cpu= were GiB (7% less).
#
# usage: sim/benchmarks/scale.sh [ALG] [NP] [PLATFORM] [SIZES] [BENCH OPTIONS...]
#   e.g. sim/benchmarks/scale.sh sparbit 32768 fattree-32k 8
#        sim/benchmarks/scale.sh padded_bruck 4096 theta 512 --coll alltoallv \
#          --dist uniform --seed 1 --dtype double
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
alg="${1:-bruck}" np="${2:-32768}" platform="${3:-fattree-32k}" sizes="${4:-8}"
shift $(($# < 4 ? $# : 4))
cli="${COLLSIM_CLI:-$root/build/collsim-cli}"
[ -x "$cli" ] || { echo "build first: ./collsim help" >&2; exit 2; }

# this run's processes only: another simulation may run beside it
descendants() {
  local kids
  kids=$(pgrep -P "$1" || true)
  for k in $kids; do echo "$k"; descendants "$k"; done
}
used_kb() { awk '/MemTotal/ {t=$2} /MemAvailable/ {a=$2} END {print t-a}' /proc/meminfo; }
base=$(used_kb)
log=$(mktemp) cpu=$(mktemp)
start=$(date +%s.%N)
/usr/bin/time -o "$cpu" -f "%U %S" "$cli" bench --platform "$platform" --np "$np" --alg "$alg" \
  --sizes "$sizes" --fold --iters 1 --warmup 0 "$@" >"$log" 2>&1 &
pid=$!
peak_pss=0 peak_rss=0 peak_used=0
while kill -0 "$pid" 2>/dev/null; do
  for p in $(descendants "$pid"); do
    [ "$(cat "/proc/$p/comm" 2>/dev/null)" = smpimain ] || continue
    pss=$(awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)
    rss=$(awk '/^Rss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)
    ((pss > peak_pss)) && peak_pss=$pss
    ((rss > peak_rss)) && peak_rss=$rss
  done
  u=$(($(used_kb) - base))
  ((u > peak_used)) && peak_used=$u
  sleep 1
done
rc=0
wait "$pid" || rc=$?
end=$(date +%s.%N)
cat "$log"
read -r ucpu scpu < <(tail -1 "$cpu") || true
awk -v a="$alg" -v n="$np" -v p="$platform" -v s="$sizes" -v rc="$rc" -v t0="$start" -v t1="$end" \
    -v pss="$peak_pss" -v used="$peak_used" -v rss="$peak_rss" -v u="${ucpu:-0}" -v k="${scpu:-0}" 'BEGIN {
  printf "scale: alg=%s np=%s platform=%s sizes=%s exit=%d wall=%.1f s cpu=%.1f s peak_pss=%.2f GB peak_used=%.2f GB peak_rss=%.2f GB\n",
         a, n, p, s, rc, t1 - t0, u + k, pss * 1024 / 1e9, used * 1024 / 1e9, rss * 1024 / 1e9 }'
rm -f "$log" "$cpu"
exit "$rc"
