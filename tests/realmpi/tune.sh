#!/bin/sh
# The decision files of `collsim tune` under a real MPI (label realmpi), run by ctest
# (tests/CMakeLists.txt):
#   tune.sh ompi CLI RESULTS TRACE_SO TUNE_CALLS   Open MPI loads ompi-rules.conf: per call, the
#       algorithm Open MPI runs (ompi_trace.c) is the one the file names for its (np, size), or,
#       where the file says 0, the one Open MPI runs without the file
#   tune.sh pmpi CLI RESULTS PMPI_SO TUNE_CALLS    libcollsim_pmpi with COLLSIM_<COLL>=auto:FILE:
#       the report's count of calls per algorithm is the table's, every element checked
# Each check is also run against a deliberately wrong file and must then fail. Exits 77 (skipped)
# with a message when mpirun is missing or is not Open MPI.
set -u
command -v mpirun >/dev/null || { echo "skipped: no mpirun (./collsim --real-mpi installs openmpi-bin)"; exit 77; }
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
mode=$1 cli=$2 results=$3 lib=$4 prog=$5
# the fixture's sizes (16, 1024, 65536 B), one below, one between and one beyond them; q = 1..8
# (TUNE_NP, TUNE_SIZES: other ones, for results of other sizes, multiples of 4 bytes;
# TUNE_OPTIONS: of collsim tune; TUNE_MIN, TUNE_MIN_PAIRS: the least calls Open MPI's file and
# the least (collective, algorithm) pairs collsim's table must name, default 20 and 5; TUNE_NAMED:
# collectives each of which must have calls that run an algorithm the file names, default none)
np=${TUNE_NP:-8}
sizes=${TUNE_SIZES:-8 16 512 1024 65536 65540}
dir=$(mktemp -d /tmp/collsim-tune-XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail=0
"$cli" tune "$results" --out "$dir" ${TUNE_OPTIONS:-} >"$dir/summary" || { echo "FAIL: collsim tune"; cat "$dir/summary"; exit 1; }
run() { # run OUTFILE MPIRUN-ARGS...: the program's output in OUTFILE, its status returned
  o=$1; shift
  timeout 120 nice -n 10 mpirun --oversubscribe -np $np "$@" "$prog" $sizes >"$o" 2>&1
}
data_ok() { # data_ok OUTFILE WHAT
  if ! grep -q "tune_calls: [0-9]* checks, 0 failed" "$1"; then
    echo "FAIL: $2: data check"; tail -20 "$1"; fail=1
  fi
}

case $mode in
ompi)
  mpirun --version 2>&1 | grep -q "Open MPI" || { echo "skipped: mpirun is not Open MPI's"; exit 77; }
  # ompi_trace.c forwards its calls by the x86-64 calling convention
  [ "$(uname -m)" = x86_64 ] || { echo "skipped: ompi_trace forwards calls on x86-64 only"; exit 77; }
  rules=$dir/ompi-rules.conf
  # the numbers collsim writes (algorithms/algorithms.def) are Open MPI's own: each number's name as
  # this Open MPI's ompi_info enumerates coll_tuned_<coll>_algorithm
  ompi_info --param coll tuned --level 9 --parsable >"$dir/ompi_info" 2>&1
  def=$(dirname "$0")/../../algorithms/algorithms.def
  grep -o '^COLLSIM_LIB_ALG(ompi, [a-z_]*, [A-Za-z0-9:_]*, [1-9][0-9]*, "[a-z_-]*"' "$def" |
    sed 's/^COLLSIM_LIB_ALG(ompi, \([a-z_]*\), \([A-Za-z0-9:_]*\), \([0-9]*\), "\([a-z_-]*\)"/\1 \2 \3 \4/' >"$dir/numbers"
  [ "$(wc -l <"$dir/numbers")" -ge 55 ] || { echo "FAIL: algorithms.def read: $(wc -l <"$dir/numbers") numbers"; fail=1; }
  while read -r coll alg number name; do
    grep -q "^mca:coll:tuned:param:coll_tuned_${coll}_algorithm:enumerator:value:$number:$name\$" "$dir/ompi_info" ||
      { echo "FAIL: algorithms.def: $coll/$alg is $number \"$name\"; ompi_info: $(grep "coll_tuned_${coll}_algorithm:enumerator:value:$number:" "$dir/ompi_info")"; fail=1; }
  done <"$dir/numbers"
  echo "$(wc -l <"$dir/numbers") algorithm numbers of algorithms.def as ompi_info names them"
  run "$dir/fixed.out" -x OMPI_TRACE_FILE="$dir/fixed.trace" -x LD_PRELOAD="$lib"
  data_ok "$dir/fixed.out" "Open MPI's own decisions"
  run "$dir/rules.out" -x OMPI_TRACE_FILE="$dir/rules.trace" -x LD_PRELOAD="$lib" \
      --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename "$rules"
  data_ok "$dir/rules.out" "the rules file"
  # check RULES TRACE: every traced call against Open MPI 4.1's reading of RULES (largest communicator
  # size <= p, then largest message size <= the call's; the numbers of coll_tuned_<coll>_decision.c)
  check() {
    awk -v fixed="$dir/fixed.trace" -v min="${TUNE_MIN:-20}" -v need="${TUNE_NAMED:-}" '
      BEGIN {
        id["allgather"] = 0; id["allreduce"] = 2; id["alltoall"] = 3; id["alltoallv"] = 4
        id["bcast"] = 7; id["gather"] = 9; id["scatter"] = 15
        id["reduce"] = 11; id["reduce_scatter"] = 12; id["reduce_scatter_block"] = 13
        # reduce_scatter: the sum of the blocks, b x p for tune_calls equal ones
        kind["allgather"] = kind["alltoall"] = kind["gather"] = kind["scatter"] = "total"
        kind["reduce_scatter"] = kind["reduce_scatter_block"] = "total"
        kind["bcast"] = kind["allreduce"] = kind["reduce"] = "one"; kind["alltoallv"] = "none"
        split("basic_linear bruck recursivedoubling ring neighborexchange two_procs", f); for (i in f) fn["allgather", i] = f[i]
        split("basic_linear pairwise bruck linear_sync two_procs", f); for (i in f) fn["alltoall", i] = f[i]
        split("basic_linear pairwise", f); for (i in f) fn["alltoallv", i] = f[i]
        split("basic_linear binomial linear_sync", f); for (i in f) fn["gather", i] = f[i]
        split("basic_linear binomial linear_nb", f); for (i in f) fn["scatter", i] = f[i]
        split("basic_linear chain pipeline split_bintree bintree binomial knomial scatter_allgather scatter_allgather_ring", f); for (i in f) fn["bcast", i] = f[i]
        split("basic_linear nonoverlapping recursivedoubling ring ring_segmented redscat_allgather", f); for (i in f) fn["allreduce", i] = f[i]
        split("basic_linear chain pipeline binary binomial in_order_binary redscat_gather", f); for (i in f) fn["reduce", i] = f[i]
        split("nonoverlapping basic_recursivehalving ring butterfly", f); for (i in f) fn["reduce_scatter", i] = f[i]
        split("basic_linear recursivedoubling recursivehalving butterfly", f); for (i in f) fn["reduce_scatter_block", i] = f[i]
        while ((getline l < fixed) > 0) { split(l, w, " "); own[w[1], w[2], w[3]] = w[4] }
      }
      FNR == NR { sub(/#.*/, ""); for (i = 1; i <= NF; i++) tok[++nt] = $i; next }
      FNR == 1 { # the rules, read as Open MPI reads them
        t = 1; ncoll = tok[t++]
        for (c = 0; c < ncoll; c++) {
          cid = tok[t++]; ncs[cid] = tok[t++]
          for (s = 1; s <= ncs[cid]; s++) {
            cs[cid, s] = tok[t++]; nms[cid, s] = tok[t++]
            for (m = 1; m <= nms[cid, s]; m++) { ms[cid, s, m] = tok[t++]; alg[cid, s, m] = tok[t++]; t += 2 }
          }
        }
      }
      {
        coll = $1; p = $2; b = $3; got = $4; cid = id[coll]
        a = 0 # a collective without rules: Open MPI decides
        if (cid in ncs) {
          s = 1; for (k = 1; k <= ncs[cid]; k++) if (cs[cid, k] <= p) s = k
          size = kind[coll] == "total" ? b * p : kind[coll] == "one" ? b : 0
          m = 1; for (k = 1; k <= nms[cid, s]; k++) if (ms[cid, s, k] <= size) m = k
          a = alg[cid, s, m]
        }
        want = a ? "ompi_coll_base_" coll (coll a == "reduce_scatter_block1" ? "_" : "_intra_") fn[coll, a] : own[coll, p, b]
        if (got != want) { printf "FAIL: %s on %d ranks, %d B: rule %d: want %s, Open MPI ran %s\n", coll, p, b, a, want, got; bad++ }
        else if (a) { named++; by[coll]++ } else kept++
        if (got != own[coll, p, b]) moved++
      }
      END { printf "%d calls as the file names them, %d kept Open MPI'"'"'s own decision as the file says, %d ran another algorithm than without the file, %d wrong\n", named, kept, moved, bad
            nneed = split(need, N, " "); per = ""; for (i = 1; i <= nneed; i++) { per = per " " N[i] " " (by[N[i]] + 0); if (!by[N[i]]) few = 1 }
            if (nneed) printf "named calls per collective:%s\n", per
            exit bad ? 1 : (named < min || moved < min / 2 || few) ? 2 : 0 }' "$1" "$2"
  }
  echo "Open MPI with $rules:"
  grep -v "^#" "$dir/summary" | awk '$6 != 0' | head -40
  check "$rules" "$dir/rules.trace"; rc=$?
  [ $rc -eq 0 ] || { echo "FAIL: Open MPI did not run what the rules file names (status $rc)"; fail=1; }
  # a wrong file: every algorithm number of a named rule moved to the next one of its collective
  awk '/^[0-9]+ [1-9][0-9]* 0 0/ { $2 = $2 % 2 + 1 } { print }' "$rules" >"$dir/wrong.conf"
  check "$dir/wrong.conf" "$dir/rules.trace" >"$dir/wrong.out"; rc=$?
  if [ $rc -ne 1 ]; then echo "FAIL: the check passed a wrong rules file"; fail=1
  else echo "a wrong rules file is found out: $(grep -c FAIL "$dir/wrong.out") calls differ"; fi
  ;;
pmpi)
  table=$dir/collsim-decisions.txt
  env=""
  for c in allgather alltoall alltoallv gather scatter bcast allreduce reduce reduce_scatter_block reduce_scatter; do # those the table has
    grep -q "^$c " "$table" && env="$env -x COLLSIM_$(echo $c | tr a-z A-Z)=auto:$table"
  done
  run "$dir/pmpi.out" -x LD_PRELOAD="$lib" -x COLLSIM_REPORT=1 $env
  data_ok "$dir/pmpi.out" "the decision table"
  grep "collsim_pmpi:" "$dir/pmpi.out"
  # expect TABLE: per collective, the calls (summed over the q ranks of each) per algorithm of TABLE
  expect() {
    awk -v np=$np -v sizes="$sizes" '
      { sub(/#.*/, "") } NF == 4 { n[$1]++; rnp[$1, n[$1]] = $2; rb[$1, n[$1]] = $3; ra[$1, n[$1]] = $4 }
      END {
        ns = split(sizes, S, " ")
        for (c in n) for (q = 1; q <= np; q++) for (i = 1; i <= ns; i++) {
          b = c == "alltoallv" ? 0 : S[i]; best = 0
          for (k = 1; k <= n[c]; k++) if (rnp[c, k] <= q && rnp[c, k] > best) best = rnp[c, k]
          a = "library"; lb = -1
          for (k = 1; k <= n[c]; k++) if (rnp[c, k] == best && rb[c, k] <= b && rb[c, k] > lb) { lb = rb[c, k]; a = ra[c, k] }
          cnt[c, a] += q; names[c, a] = 1
        }
        for (k in names) { split(k, w, SUBSEP); print w[1], w[2], cnt[w[1], w[2]] }
      }' "$1" | sort
  }
  # what the report says: "collsim_pmpi: COLL/auto:FILE: the table's choices: ALG N, ..., library N;"
  sed -n 's/^collsim_pmpi: \([a-z_]*\)\/auto:[^:]*: the table.s choices: \(.*\);.*/\1 \2/p' "$dir/pmpi.out" |
    awk '{ c = $1; $1 = ""; n = split($0, part, ","); for (i = 1; i <= n; i++) { split(part[i], w, " "); if (w[2] > 0) print c, w[1], w[2] } }' |
    sort >"$dir/got"
  expect "$table" | awk '$3 > 0' >"$dir/want"
  if ! cmp -s "$dir/want" "$dir/got"; then
    echo "FAIL: the calls per algorithm are not the table's (want, then got):"; cat "$dir/want"; echo; cat "$dir/got"; fail=1
  else
    echo "calls per algorithm as the table says: $(awk '$2 != "library"' "$dir/got" | wc -l) (collective, algorithm) pairs, $(awk '$2 != "library" { s += $3 } END { print s }' "$dir/got") calls served by collsim's algorithms"
  fi
  pairs=${TUNE_MIN_PAIRS:-5}
  [ "$(awk '$2 != "library"' "$dir/want" | wc -l)" -ge "$pairs" ] ||
    { echo "FAIL: the table names fewer than $pairs of collsim's algorithms"; fail=1; }
  for c in ${TUNE_NAMED:-}; do
    awk -v c=$c '$1 == c && $2 != "library"' "$dir/got" | grep -q . ||
      { echo "FAIL: no $c call ran one of collsim's algorithms"; fail=1; }
  done
  # a wrong table: the rules of the algorithm that served most calls given to the library
  set -- $(awk '$2 != "library"' "$dir/got" | sort -k3 -n | tail -1)
  awk -v c="${1:-}" -v a="${2:-}" '$1 == c && $4 == a { $4 = "library" } { print }' "$table" >"$dir/wrong.txt"
  expect "$dir/wrong.txt" | awk '$3 > 0' | cmp -s - "$dir/got" &&
    { echo "FAIL: the check passed a wrong table"; fail=1; }
  # a table that does not read: one message naming the file and line, every process stopped
  printf 'allgather 4 16 sparbitt\n' >"$dir/bad.txt"
  run "$dir/bad.out" -x LD_PRELOAD="$lib" -x COLLSIM_ALLGATHER="auto:$dir/bad.txt"; rc=$?
  if [ $rc -ne 2 ] || ! grep -q "auto:$dir/bad.txt:1: no allgather algorithm 'sparbitt' (valid: library, ring" "$dir/bad.out"; then
    echo "FAIL: a bad table: status $rc"; cat "$dir/bad.out"; fail=1
  fi
  ;;
*) echo "tune.sh: unknown mode $mode"; exit 2 ;;
esac
exit $fail
