#!/bin/sh
# MPICH loads the selection file of `collsim tune` (label realmpi), run by ctest
# (tests/CMakeLists.txt):
#   tune_mpich.sh CLI RESULTS TRACE_C TUNE_CALLS_C
# (and mpich_every_call.c beside this script: every collective MPICH selects, each checked, on
# intra- and intercommunicators, must find an algorithm in the file)
# builds mpich_trace.c and tune_calls.c with MPICH's mpicc.mpich, runs tune_calls under
# mpirun.mpich with the files `collsim tune` writes, and checks, call by call, that MPICH ran the
# algorithm the file names for the call's (p, bytes): what each call receives (mpich_trace.c) is
# what that algorithm receives when MPICH is made to run it (MPIR_CVAR_<COLL>_INTRA_ALGORITHM),
# and, where the file keeps MPICH's own choice, what the call receives without the file. The
# same check against the choices with every named algorithm moved to another must fail. Exits
# 77 (skipped) with the reason when MPICH 4 with its ch4:ucx device is not installed.
set -u
command -v mpicc.mpich >/dev/null && command -v mpirun.mpich >/dev/null ||
  { echo "skipped: no mpicc.mpich (./collsim test installs Debian's mpich and libmpich-dev)"; exit 77; }
mpichversion 2>/dev/null | grep -q "Version:[[:space:]]*4\." ||
  { echo "skipped: MPICH is not version 4 ($(mpichversion 2>/dev/null | head -1))"; exit 77; }
mpichversion | grep -q "Device:[[:space:]]*ch4:ucx" ||
  { echo "skipped: MPICH's device is not ch4:ucx ($(mpichversion | grep Device)): mpich_trace reads UCX receives"; exit 77; }
cli=$1 results=$2 trace_c=$3 calls_c=$4
# (TUNE_NP, TUNE_SIZES, TUNE_OPTIONS, TUNE_MIN, TUNE_NAMED: as tune.sh's)
np=${TUNE_NP:-8}
sizes=${TUNE_SIZES:-8 16 512 1024 65536 65540}
dir=$(mktemp -d /tmp/collsim-tune-mpich-XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail=0
mpicc.mpich -O2 -shared -fPIC "$trace_c" -o "$dir/mpich_trace.so" -ldl &&
  mpicc.mpich -O2 "$calls_c" -o "$dir/tune_calls" &&
  mpicc.mpich -O2 "$(dirname "$0")/mpich_every_call.c" -o "$dir/every_call" || { echo "FAIL: building with mpicc.mpich"; exit 1; }
"$cli" tune "$results" --out "$dir" ${TUNE_OPTIONS:-} >"$dir/summary" || { echo "FAIL: collsim tune"; cat "$dir/summary"; exit 1; }
json=$dir/mpich-selection.json ch4=$dir/mpich-ch4-selection.json
# every MPICH name of algorithms.def is in the file (MPICH's own choices name them all), so MPICH,
# which parses the whole file when it starts and stops on a name it does not know, accepts them
def=$(dirname "$0")/../../algorithms/algorithms.def
names=$(sed -n 's/^COLLSIM_LIB_ALG(mpich, [a-z_]*, [A-Za-z0-9:_]*, [1-9][0-9]*, "\(MPIR_[A-Za-z_]*\)".*/\1/p' "$def" | sort -u)
[ "$(echo "$names" | wc -w)" -ge 22 ] || { echo "FAIL: algorithms.def read: $(echo "$names" | wc -w) MPICH names"; fail=1; }
for n in $names; do grep -q "\"algorithm=$n\"" "$json" || { echo "FAIL: $n (algorithms.def) is not in $json"; fail=1; }; done
run() { # run NAME ENV...: tune_calls under MPICH with the ch4 file and ENV, traced into DIR/NAME
  name=$1; shift
  mkdir "$dir/$name"
  env=""
  for e in MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE=$ch4 MPICH_TRACE_DIR=$dir/$name LD_PRELOAD=$dir/mpich_trace.so "$@"; do
    env="$env -env ${e%%=*} ${e#*=}"
  done
  timeout 120 nice -n 10 mpirun.mpich -np $np $env "$dir/tune_calls" $sizes >"$dir/$name.out" 2>&1
  if ! grep -q "tune_calls: [0-9]* checks, 0 failed" "$dir/$name.out"; then
    echo "FAIL: $name: data check or run"; tail -20 "$dir/$name.out"; fail=1
  fi
  # one line per call: COLLECTIVE P BYTES, then each rank's receives (rank 0 first)
  for r in $(seq 0 $((np - 1))); do sed "s/^/$r /" "$dir/$name/rank.$r"; done |
    awk '{ k = $2 " " $3 " " $4; $1 = $1 ":"; line = $0; sub(/^[^ ]* [^ ]* [^ ]* [^ ]* /, "", line); s[k] = s[k] " [" $1 " " line "]" }
         END { for (k in s) print k s[k] }' | sort >"$dir/$name.calls"
}
run own                                             # MPICH's own selection
run file MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE="$json"
# MPICH made to run each of its algorithms that the file may name (gather, scatter and alltoallv
# have one each: the run without the file shows it)
run ref1 MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM=brucks MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=brucks \
  MPIR_CVAR_BCAST_INTRA_ALGORITHM=binomial MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=recursive_doubling \
  MPIR_CVAR_REDUCE_INTRA_ALGORITHM=binomial MPIR_CVAR_REDUCE_SCATTER_INTRA_ALGORITHM=recursive_halving \
  MPIR_CVAR_REDUCE_SCATTER_BLOCK_INTRA_ALGORITHM=recursive_halving
run ref2 MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM=recursive_doubling MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=pairwise \
  MPIR_CVAR_BCAST_INTRA_ALGORITHM=scatter_recursive_doubling_allgather \
  MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=reduce_scatter_allgather \
  MPIR_CVAR_REDUCE_INTRA_ALGORITHM=reduce_scatter_gather MPIR_CVAR_REDUCE_SCATTER_INTRA_ALGORITHM=pairwise \
  MPIR_CVAR_REDUCE_SCATTER_BLOCK_INTRA_ALGORITHM=pairwise
run ref3 MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM=ring MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=scattered \
  MPIR_CVAR_BCAST_INTRA_ALGORITHM=scatter_ring_allgather \
  MPIR_CVAR_REDUCE_SCATTER_INTRA_ALGORITHM=recursive_doubling \
  MPIR_CVAR_REDUCE_SCATTER_BLOCK_INTRA_ALGORITHM=recursive_doubling
# every collective MPICH selects, on intra- and intercommunicators, finds an algorithm in the file
# (MPICH stops on an assertion at a call that finds none); and does not without one of them
every() { # every FILE OUT
  timeout 60 nice -n 10 mpirun.mpich -np 4 -env MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE "$ch4" \
    -env MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE "$1" "$dir/every_call" >"$2" 2>&1
}
every "$json" "$dir/every.out"
grep -q "mpich_every_call: [0-9]* checks, 0 failed" "$dir/every.out" ||
  { echo "FAIL: a collective on the selection file"; tail -5 "$dir/every.out"; fail=1; }
awk '/"algorithm=MPIR_Ibarrier_inter_/ { sub(/,$/, "", prev); next } NR > 1 { print prev } { prev = $0 } END { print prev }' \
  "$json" >"$dir/no-ibarrier-inter.json"
every "$dir/no-ibarrier-inter.json" "$dir/every-short.out"
grep -q "Assertion failed" "$dir/every-short.out" ||
  { echo "FAIL: a file without the intercommunicator ibarrier did not stop MPICH"; tail -5 "$dir/every-short.out"; fail=1; }
[ $fail -eq 0 ] || exit 1
echo "$(echo "$names" | wc -w) MPICH names of algorithms.def, each in the file MPICH read; $(sed -n 's/^mpich_every_call: \([0-9]*\) checks.*/\1/p' "$dir/every.out") checks of every collective MPICH selects, on intra- and intercommunicators, through the file (without the intercommunicator ibarrier, MPICH stops)"

# check CHOICES: every call of the file's run against the file as MPICH reads it. CHOICES: the
# summary's lines "COLLECTIVE NP BYTES ... MPICH-CHOICE" (an MPIR_ name, or library: MPICH's own)
check() {
  awk -v dir="$dir" -v min="${TUNE_MIN:-10}" -v need="${TUNE_NAMED:-}" '
    function pof2(n,  p) { p = 1; while (p * 2 <= n) p *= 2; return p }
    # what MPICH runs an algorithm for (coll_algorithms.txt of MPICH 4.0.2): made to run another,
    # it runs its own choice instead, so its reference run shows no such algorithm
    # (tune_calls: MPI_SUM, commutative, for the reductions)
    function serves(a, q, b) { return (a != "MPIR_Allgather_intra_recursive_doubling" || pof2(q) == q) &&
                                      (a != "MPIR_Allreduce_intra_reduce_scatter_allgather" || int(b / 4) >= pof2(q)) &&
                                      (a != "MPIR_Reduce_intra_reduce_scatter_gather" || int(b / 4) >= pof2(q)) }
    # MPICH'"'"'s size; reduce_scatter: the sum of the blocks, b x p for tune_calls'"'"' equal ones
    function scale(c, b, p) { return (c == "allgather" || c == "reduce_scatter" || c == "reduce_scatter_block") ? b * p : (c == "gather" || c == "scatter") ? int(b / 4) * p : b }
    BEGIN {
      split("brucks recursive_doubling ring", f); for (i in f) ref["MPIR_Allgather_intra_" f[i]] = "ref" i
      split("brucks pairwise scattered", f); for (i in f) ref["MPIR_Alltoall_intra_" f[i]] = "ref" i
      split("binomial scatter_recursive_doubling_allgather scatter_ring_allgather", f); for (i in f) ref["MPIR_Bcast_intra_" f[i]] = "ref" i
      split("recursive_doubling reduce_scatter_allgather", f); for (i in f) ref["MPIR_Allreduce_intra_" f[i]] = "ref" i
      split("binomial reduce_scatter_gather", f); for (i in f) ref["MPIR_Reduce_intra_" f[i]] = "ref" i
      split("recursive_halving pairwise recursive_doubling", f); for (i in f) ref["MPIR_Reduce_scatter_intra_" f[i]] = ref["MPIR_Reduce_scatter_block_intra_" f[i]] = "ref" i
      ref["MPIR_Alltoallv_intra_scattered"] = ref["MPIR_Gather_intra_binomial"] = ref["MPIR_Scatter_intra_binomial"] = "own"
      for (a in ref) { c = a; sub(/^MPIR_/, "", c); sub(/_intra_.*/, "", c); c = tolower(c); algs[c] = algs[c] " " a }
      split("own ref1 ref2 ref3", runs, " ")
      for (r in runs) while ((getline l < (dir "/" runs[r] ".calls")) > 0) { split(l, w, " "); k = w[1] " " w[2] " " w[3]; sub(/^[^ ]* [^ ]* [^ ]* /, "", l); sig[runs[r], k] = l }
    }
    FNR == NR { if ($0 !~ /^#/ && $NF != "-") { c = $1; n[c, $2]++; nb[c, $2, n[c, $2]] = $3; ch[c, $2, n[c, $2]] = $NF; if (!((c, $2) in seen)) { seen[c, $2]; nps[c] = nps[c] " " $2 } } next }
    {
      c = $1; q = $2; b = $3; k = c " " q " " b; got = $0; sub(/^[^ ]* [^ ]* [^ ]* /, "", got)
      want = "library"; np = 0
      m = split(nps[c], P, " "); for (i = 1; i <= m; i++) if (P[i] <= q && P[i] > np) np = P[i]
      if (np && (np == P[m] ? q <= np : 1) && c != "alltoallv") {
        s = scale(c, b, q); last = n[c, np]
        for (i = 1; i <= last; i++) if (scale(c, nb[c, np, i], np) <= s) want = ch[c, np, i]
        if (s < scale(c, nb[c, np, 1], np) || s > scale(c, nb[c, np, last], np)) want = "library"
      }
      if (!serves(want, q, b)) want = "library"
      run = want == "library" ? "own" : ref[want]
      if (!(run != "" && (run, k) in sig)) { printf "FAIL: %s on %d ranks, %d B: no reference run of %s\n", c, q, b, want; bad++; next }
      if (got != sig[run, k]) { printf "FAIL: %s on %d ranks, %d B: the file names %s; MPICH received %s, that algorithm %s\n", c, q, b, want, got, sig[run, k]; bad++; next }
      if (want == "library") { kept++; next }
      named++; by[c]++; alone = 1; others = 0
      na = split(algs[c], A, " "); for (i = 1; i <= na; i++) if (A[i] != want && serves(A[i], q, b) && (ref[A[i]], k) in sig) { others++; if (sig[ref[A[i]], k] == got) alone = 0 }
      told += alone && others
      if (got != sig["own", k]) moved++
    }
    END { printf "%d calls as the file names them (%d of them told apart from every other algorithm MPICH has for the collective), %d kept MPICH'"'"'s own choice as the file says, %d ran another algorithm than without the file, %d wrong\n", named, told, kept, moved, bad
          nneed = split(need, N, " "); per = ""; for (i = 1; i <= nneed; i++) { per = per " " N[i] " " (by[N[i]] + 0); if (!by[N[i]]) few = 1 }
          if (nneed) printf "named calls per collective:%s\n", per
          exit bad ? 1 : (told < min || moved < min / 2 || few) ? 2 : 0 }' "$1" "$dir/file.calls"
}
echo "MPICH with $json:"
grep -v "^#" "$dir/summary" | awk '$NF != "-" && $NF != "library" { print $1, $2, $3, $NF }' | head -40
check "$dir/summary"; rc=$?
[ $rc -eq 0 ] || { echo "FAIL: MPICH did not run what the selection file names (status $rc)"; fail=1; }
# wrong choices: every named algorithm moved to the next one of its collective (the first to the last)
awk '!/^#/ { a = $NF
  if (a ~ /Allgather_intra_brucks/) a = "MPIR_Allgather_intra_ring"; else if (a ~ /Allgather_intra_ring/) a = "MPIR_Allgather_intra_brucks"
  else if (a ~ /Alltoall_intra_brucks/) a = "MPIR_Alltoall_intra_pairwise"; else if (a ~ /Alltoall_intra_pairwise/) a = "MPIR_Alltoall_intra_scattered"
  else if (a ~ /Alltoall_intra_scattered/) a = "MPIR_Alltoall_intra_brucks"
  else if (a ~ /Bcast_intra_binomial/) a = "MPIR_Bcast_intra_scatter_ring_allgather"; else if (a ~ /Bcast_intra_scatter/) a = "MPIR_Bcast_intra_binomial"
  else if (a ~ /Allreduce_intra_recursive/) a = "MPIR_Allreduce_intra_reduce_scatter_allgather"; else if (a ~ /Allreduce_intra_reduce/) a = "MPIR_Allreduce_intra_recursive_doubling"
  else if (a ~ /Reduce_intra_binomial/) a = "MPIR_Reduce_intra_reduce_scatter_gather"; else if (a ~ /Reduce_intra_reduce/) a = "MPIR_Reduce_intra_binomial"
  else if (a ~ /Reduce_scatter_intra_recursive_halving/) a = "MPIR_Reduce_scatter_intra_pairwise"; else if (a ~ /Reduce_scatter_intra_/) a = "MPIR_Reduce_scatter_intra_recursive_halving"
  else if (a ~ /Reduce_scatter_block_intra_recursive_halving/) a = "MPIR_Reduce_scatter_block_intra_pairwise"; else if (a ~ /Reduce_scatter_block_intra_/) a = "MPIR_Reduce_scatter_block_intra_recursive_halving"
  $NF = a } { print }' "$dir/summary" >"$dir/wrong"
check "$dir/wrong" >"$dir/wrong.out"; rc=$?
if [ $rc -ne 1 ]; then echo "FAIL: the check passed wrong choices"; fail=1
else echo "wrong choices are found out: $(grep -c FAIL "$dir/wrong.out") calls differ"; fi
exit $fail
