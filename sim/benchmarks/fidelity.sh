#!/usr/bin/env bash
# Fidelity gate for a platform model change: runs scenarios on the current platform models and on
# another model of the same machines (the generators' --model option), then prints, per algorithm,
# platform and mapping, how far the current models move the predicted times.
#
# usage: sim/benchmarks/fidelity.sh [--model M] [--out DIR] [-j N] SCENARIO.xml...
#   --model M   the model to compare against (default nested: the socket platforms before flat)
#   --out DIR   where the runs go (default fidelity/); DIR/SCENARIO/{current,M}/results.csv.
#               Runs resume: run again after an interruption.
#   -j N        parallel cases (default 2)
#   --table     only print the comparison of runs already in DIR
#
# Only the platforms whose generator knows the model are switched (lassen, quartz for nested);
# a scenario naming others runs them unchanged in both runs. The comparison joins rows on every
# key column (np, ppn, mapping, algorithm, region, bytes, ...): avg_us, and the largest relative
# difference of avg, min and max; "moved" counts cases beyond 2%.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cli="${COLLSIM_CLI:-$root/build/collsim-cli}"
model=nested out=fidelity jobs=2 table=0 scen=()
while (($#)); do
  case "$1" in
    --model) model=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    --table) table=1; shift ;;
    -*) echo "fidelity: unknown option '$1' (see the usage at the top of $0)" >&2; exit 2 ;;
    *) scen+=("$1"); shift ;;
  esac
done
((${#scen[@]})) || { echo "fidelity: name at least one scenario file" >&2; exit 2; }
[ -x "$cli" ] || { echo "fidelity: build first (./collsim help)" >&2; exit 2; }

# the other model's platform files, named as the platforms are (results name the platform by file)
alt="$out/platforms-$model"
mkdir -p "$alt"
[ -f "$alt/quartz.xml" ] || sh "$root/platforms/generate-sockets.sh" --model "$model" quartz 24 43 "$alt/quartz.xml"
[ -f "$alt/lassen.xml" ] || sh "$root/platforms/generate-sockets.sh" --model "$model" lassen 18 57 "$alt/lassen.xml"

compare() { # CURRENT.csv OTHER.csv LABEL
  awk -F, -v label="$3" '
    FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
    {
      f = FILENAME
      key = ""
      n = split("platform,collective,algorithm,mapping,np,ppn,region,dtype,mode,bytes,dist,seed", k, ",")
      for (i = 1; i <= n; i++) if ((f, k[i]) in col) key = key "," $(col[f, k[i]])
      if ($(col[f, "status"]) != "ok") next
      if (f == ARGV[1]) { a[key] = $(col[f, "avg_us"]); mi[key] = $(col[f, "min_us"]); ma[key] = $(col[f, "max_us"])
                          grp[key] = $(col[f, "algorithm"]) " | " $(col[f, "platform"]) " | " $(col[f, "mapping"]) }
      else { b[key] = $(col[f, "avg_us"]); bmi[key] = $(col[f, "min_us"]); bma[key] = $(col[f, "max_us"]) }
    }
    function rel(x, y) { return y > 0 ? (x - y) / y : 0 }
    function abs(x) { return x < 0 ? -x : x }
    END {
      for (key in a) {
        if (!(key in b)) { missing++; continue }
        g = grp[key]; cases[g]++
        d = rel(a[key], b[key]); sum[g] += d
        if (!(g in worst) || abs(d) > abs(worst[g])) worst[g] = d
        e = abs(d); if (abs(rel(mi[key], bmi[key])) > e) e = abs(rel(mi[key], bmi[key]))
        if (abs(rel(ma[key], bma[key])) > e) e = abs(rel(ma[key], bma[key]))
        if (e > anyw[g]) anyw[g] = e
        if (e > 0.02) moved[g]++
      }
      for (g in cases)
        printf "| %s | %s | %d | %+.3f%% | %+.3f%% | %.3f%% | %d |\n", label, g, cases[g],
               100 * sum[g] / cases[g], 100 * worst[g], 100 * anyw[g], moved[g]
      if (missing) printf "fidelity: %s: %d cases have no row in both runs\n", label, missing > "/dev/stderr"
    }' "$1" "$2" | sort
}

echo "| scenario | algorithm | platform | mapping | cases | mean avg diff | largest avg diff | largest avg/min/max diff | moved > 2% |"
echo "|---|---|---|---|---:|---:|---:|---:|---:|"
for s in "${scen[@]}"; do
  name=$(basename "$s" .xml)
  d="$out/$name"
  mkdir -p "$d"
  # the same scenario with lassen and quartz taken from the other model's files
  sed -e "s|<platform name=\"quartz\"/>|<platform file=\"$(realpath "$alt")/quartz.xml\"/>|" \
      -e "s|<platform name=\"lassen\"/>|<platform file=\"$(realpath "$alt")/lassen.xml\"/>|" "$s" >"$d/$name-$model.xml"
  if ((!table)); then
    for run in current "$model"; do
      sf=$s
      [ "$run" = current ] || sf="$d/$name-$model.xml"
      r=()
      [ -f "$d/$run/results.csv" ] && r=(--resume)
      "$cli" run "$sf" --out "$d/$run" -j "$jobs" "${r[@]}" >"$d/$run.log" 2>&1 || true
    done
  fi
  compare "$d/current/results.csv" "$d/$model/results.csv" "$name"
done
