#!/usr/bin/env bash
# Scale study: what one folded collective call costs the simulator (CPU seconds, peak PSS) and
# what it predicts, per platform model, SMPI option set, algorithm, rank count and mapping.
# Each point is run once per candidate, the candidates of one point back to back, so that every
# ratio to the baseline comes from a pair of runs made under the same machine load.
#
# usage: sim/benchmarks/scale-study.sh [options]
#   --out FILE          CSV of the runs (default scale-study.csv); rows already there are kept and
#                       not run again (an interrupted study resumes)
#   --platforms LIST    comma-separated platform names (default quartz,lassen,theta,cori)
#   --algs LIST         bruck,sparbit_packed,loc_bruck,two_phase_bruck (the default)
#   --np LIST           rank counts (default 2048,4096,8192)
#   --maps LIST         sequential,cyclic (the default)
#   --candidates LIST   names from the table below (default: all)
#   --ppn N             ranks per node (default 32, on theta 64: its 768 nodes hold 24,576 ranks
#                       at 32; the other machine models hold 32K ranks at 32)
#   --timeout S         CPU seconds before a run is stopped (default 1800); recorded as timeout
#   --table             print the CSV as a Markdown table (ratios to `base`) and exit
#
# A candidate is a platform model (the generator's default model, or a named variant: what
# generate-sockets.sh writes with --model NAME; generate-aries.sh's minimal, bundles, 3lat) and a
# set of SMPI options. Candidates (name|model|options):
candidates_table='
base|default|
optim-full|default|network/optim:Full
no-selective|default|network/maxmin-selective-update:no
maxmin-1e-6|default|maxmin/precision:1e-6
surf-1e-8|default|surf/precision:1e-8
thread-ctx|default|contexts/factory:thread
'
# Algorithms: the allgathers move 8 bytes (2 ints) per rank, two_phase_bruck (alltoallv) blocks
# of at most 16 doubles drawn uniformly (seed 1); loc_bruck uses node regions.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cli="${COLLSIM_CLI:-$root/build/collsim-cli}"
out=scale-study.csv platforms=quartz,lassen,theta,cori algs=bruck,sparbit_packed,loc_bruck,two_phase_bruck
nps=2048,4096,8192 maps=sequential,cyclic cands="" ppn_opt="" timeout=1800 table=0
while (($#)); do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --platforms) platforms=$2; shift 2 ;;
    --algs) algs=$2; shift 2 ;;
    --np) nps=$2; shift 2 ;;
    --maps) maps=$2; shift 2 ;;
    --candidates) cands=$2; shift 2 ;;
    --ppn) ppn_opt=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --table) table=1; shift ;;
    *) echo "scale-study: unknown option '$1' (see the usage at the top of $0)" >&2; exit 2 ;;
  esac
done

header="platform,model,options,alg,np,map,ppn,status,cpu_s,wall_s,peak_pss_gb,avg_us,min_us,max_us"

if ((table)); then
  [ -f "$out" ] || { echo "scale-study: no file '$out'" >&2; exit 2; }
  # one line per run; cpu and predicted times as ratios to the base run of the same point
  awk -F, 'NR == 1 { next }
    { key = $1 "," $4 "," $5 "," $6; row[NR] = $0; k[NR] = key
      if ($2 == "default" && $3 == "") { bcpu[key] = $9; bavg[key] = $12 } }
    END {
      print "| platform | alg | np | map | model | options | status | CPU s | x base | peak PSS GB | avg us | vs base |"
      print "|---|---|---:|---|---|---|---|---:|---:|---:|---:|---:|"
      for (i = 2; i <= NR; i++) {
        split(row[i], f, ",")
        r = (k[i] in bcpu && bcpu[k[i]] > 0 && f[8] == "ok") ? sprintf("%.2f", f[9] / bcpu[k[i]]) : "-"
        d = (k[i] in bavg && bavg[k[i]] > 0 && f[8] == "ok") ? sprintf("%+.2f%%", 100 * (f[12] / bavg[k[i]] - 1)) : "-"
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
               f[1], f[4], f[5], f[6], f[2], (f[3] == "" ? "-" : f[3]), f[8], f[9], r, f[11], f[12], d
      }
    }' "$out"
  exit 0
fi

[ -x "$cli" ] || { echo "scale-study: build first (./collsim help)" >&2; exit 2; }
[ -f "$out" ] || echo "$header" >"$out"
[ "$(head -1 "$out")" = "$header" ] || { echo "scale-study: $out is not a scale-study file" >&2; exit 2; }

declare -A cand_model cand_opts
cand_names=()
while IFS='|' read -r name model opts; do
  [ -n "$name" ] || continue
  cand_names+=("$name")
  cand_model[$name]=$model
  cand_opts[$name]=$opts
done <<<"$candidates_table"
if [ -n "$cands" ]; then
  IFS=, read -r -a want <<<"$cands"
  for c in "${want[@]}"; do
    [ -n "${cand_model[$c]+x}" ] || { echo "scale-study: unknown candidate '$c' (valid: ${cand_names[*]})" >&2; exit 2; }
  done
  cand_names=("${want[@]}")
fi

# A platform model variant is written once into a scratch directory by its generator.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
platform_file() { # NAME MODEL -> the file bench is given
  local p=$1 m=$2
  if [ "$m" = default ]; then echo "$p"; return; fi
  local f="$scratch/$p-$m.xml"
  if [ ! -f "$f" ]; then
    case "$p" in
      quartz) sh "$root/platforms/generate-sockets.sh" --model "$m" quartz 24 43 "$f" ;;
      lassen) sh "$root/platforms/generate-sockets.sh" --model "$m" lassen 18 57 "$f" ;;
      cori | cori-knl | theta)
        case "$m" in # the generator's named variants
          minimal) sh "$root/platforms/generate-aries.sh" -r minimal "$p" "$f" ;;
          bundles) sh "$root/platforms/generate-aries.sh" -r adaptive-bundles "$p" "$f" ;;
          3lat) sh "$root/platforms/generate-aries.sh" -l 3 "$p" "$f" ;;
          *) echo "scale-study: no model '$m' for platform '$p' (valid: minimal, bundles, 3lat)" >&2; return 1 ;;
        esac ;;
      *) echo "scale-study: no model '$m' for platform '$p'" >&2; return 1 ;;
    esac
  fi
  echo "$f"
}

used_kb() { awk '/MemTotal/ {t=$2} /MemAvailable/ {a=$2} END {print t-a}' /proc/meminfo; }
descendants() {
  local kids
  kids=$(pgrep -P "$1" || true)
  for k in $kids; do echo "$k"; descendants "$k"; done
}

run_one() { # PLATFORM CANDIDATE ALG NP MAP
  local p=$1 c=$2 alg=$3 np=$4 map=$5 model=${cand_model[$2]} opts=${cand_opts[$2]}
  local ppn=${ppn_opt:-32}
  [ -z "$ppn_opt" ] && [ "$p" = theta ] && ppn=64
  local key="$p,$model,$opts,$alg,$np,$map,$ppn,"
  if grep -qF -- "$key" "$out"; then return; fi
  local pf args=() o
  pf=$(platform_file "$p" "$model") || return 0
  case "$alg" in
    two_phase_bruck) args=(--coll alltoallv --dist uniform --seed 1 --dtype double --sizes 128) ;;
    *) args=(--coll allgather --dtype int --sizes 8) ;;
  esac
  for o in $opts; do args+=(--smpi-cfg "$o"); done
  local log tfile start end peak=0 pss status=ok
  log=$(mktemp)
  tfile=$(mktemp)
  start=$(date +%s.%N)
  # the run's CPU: what `times` says its own shell's children (bench, smpirun, smpimain) used
  TFILE="$tfile" bash -c '"$@" >"$0" 2>&1; rc=$?; times >"$TFILE"; exit $rc' "$log" \
    "$cli" bench --platform "$pf" --np "$np" --ppn "$ppn" --map "$map" --alg "$alg" --fold \
    --iters 1 --warmup 0 --timeout "$timeout" "${args[@]}" &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    for q in $(descendants "$pid"); do
      [ "$(cat "/proc/$q/comm" 2>/dev/null)" = smpimain ] || continue
      pss=$(awk '/^Pss:/ {print $2}' "/proc/$q/smaps_rollup" 2>/dev/null || echo 0)
      ((pss > peak)) && peak=$pss
    done
    sleep 1
  done
  wait "$pid" || status=error
  end=$(date +%s.%N)
  grep -q "timeout\|CPU seconds" "$log" && [ "$status" = error ] && status=timeout
  local times
  times=$(awk '/^[0-9]/ && NF >= 4 {print $2 "," $3 "," $4; exit}' "$log")
  [ -n "$times" ] || { times=",,"; [ "$status" = ok ] && status=error; }
  if [ "$status" != ok ]; then
    echo "scale-study: $p $model '$opts' $alg np $np $map: $status; the run said:" >&2
    tail -5 "$log" | sed 's/^/  /' >&2
  fi
  # times' second line: the children's user and system time, as 1m2.345s 0m0.678s
  printf '%s%s,%s,%s,%s,%s\n' "$key" "$status" \
    "$(awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += 60 * t[1] + t[2] }
                      printf "%.1f", n }' "$tfile")" \
    "$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.1f", b - a}')" \
    "$(awk -v k="$peak" 'BEGIN {printf "%.2f", k / 1048576}')" "$times" >>"$out"
  tail -1 "$out"
  rm -f "$log" "$tfile"
}

IFS=, read -r -a P <<<"$platforms"
IFS=, read -r -a A <<<"$algs"
IFS=, read -r -a N <<<"$nps"
IFS=, read -r -a M <<<"$maps"
for np in "${N[@]}"; do
  for p in "${P[@]}"; do
    for alg in "${A[@]}"; do
      for map in "${M[@]}"; do
        for c in "${cand_names[@]}"; do
          run_one "$p" "$c" "$alg" "$np" "$map"
        done
      done
    done
  done
done
