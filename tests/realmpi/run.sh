#!/bin/sh
# The real-MPI tests (label realmpi), run by ctest: tests/CMakeLists.txt.
#   run.sh preload ALGORITHMS_DEF PMPI_SO MPI_COLLS   every algorithm through libcollsim_pmpi
#   run.sh direct MPI_COLLS_DIRECT                    every algorithm called directly
#   run.sh compare MPIBENCH CLI SCENARIO              collsim-mpibench measured beside predicted
#   run.sh intergroup MPI_INTERGROUP                  the intergroup algorithms on intercommunicators
#   run.sh mixed ALGORITHMS_DEF PMPI_SO MPI_MIXED     datatypes of one signature mixed across ranks
# Exits 77 (skipped) with a message when mpirun is missing.
set -u
# under SMPI (no real MPI needed): the PMPI layer linked into mpi_colls, every allgather with an
# alltoall and an alltoallv cycled alongside, 16 ranks on Yahoo, regions of 3 ranks
if [ "$1" = smpi ]; then
  mod=$2 plat=$3 fail=0 dir=$(mktemp -d /tmp/collsim-smpi-pmpi-XXXXXX)
  seq 0 15 | sed 's/^/node-/' >"$dir/hosts"
  for g in ring bruck sparbit loc_bruck hierarchical; do
    out=$(cd "$dir" && COLLSIM_ALLGATHER=$g COLLSIM_ALLTOALL=bruck_zero_copy COLLSIM_ALLTOALLV=two_phase_bruck \
          COLLSIM_REGION_BLOCK=3 COLLSIM_REPORT=1 timeout 600 smpirun -np 16 -platform "$plat" \
          -hostfile hosts --cfg=smpi/privatization:no --cfg=smpi/simulate-computation:no \
          --cfg=contexts/stack-size:256 --log=root.thresh:warning "$mod" 2>&1); rc=$?
    echo "$out" | grep -E "mpi_colls:|collsim_pmpi: " | sed "s|^|smpi, allgather/$g: |"
    if [ $rc -ne 0 ] || ! echo "$out" | grep -q " checks, 0 failed"; then
      echo "FAIL: smpi allgather/$g: exit status $rc"; echo "$out" | tail -20; fail=1
    fi
    # every call served (the counters are per simulated rank): 16 x 85 allgathers
    echo "$out" | grep -q "allgather/$g: 1360 calls served (544 packed), 0 to the library" ||
      { echo "FAIL: smpi allgather/$g: report"; fail=1; }
  done
  rm -rf "$dir"
  exit $fail
fi
command -v mpirun >/dev/null || { echo "skipped: no mpirun (./collsim --real-mpi installs openmpi-bin)"; exit 77; }
# Open MPI refuses root without these
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
np=12
run() { # run NP ENV... PROGRAM ARGS: output in $out, status in $rc
  n=$1; shift
  out=$(timeout 300 nice -n 10 mpirun --oversubscribe -np "$n" "$@" 2>&1); rc=$?
}
fail=0
ok() { # ok CONDITION-STATUS WHAT
  if [ "$1" -ne 0 ]; then echo "FAIL: $2"; echo "$out" | tail -25; fail=1; fi
}
has() { echo "$out" | grep -qF -- "$1"; }

case $1 in
direct)
  run $np "$2" --intercomm --some-q
  ok $rc "direct: exit status $rc"; has "mpi_colls: " && has " checks, 0 failed"; ok $? "direct: no '0 failed'"
  echo "$out" | grep "mpi_colls:"
  ;;
preload)
  def=$2 so=$3 prog=$4
  names() { tr -d '\n' <"$def" | grep -oE "COLLSIM_ALG\($1, *[a-z0-9_]+" | sed 's/.*, *//'; }
  ag=$(names allgather) a2a=$(names alltoall) a2av=$(names alltoallv) ga=$(names gather) sc=$(names scatter)
  bc=$(names bcast) ar=$(names allreduce) rd=$(names reduce)
  rsb=$(names reduce_scatter_block) rsv=$(names reduce_scatter)
  set -- $ag; nag=$#; set -- $a2a; na2a=$#; set -- $a2av; na2av=$#; set -- $ga; nga=$#; set -- $sc; nsc=$#
  set -- $bc; nbc=$#; set -- $ar; nar=$#; set -- $rd; nrd=$#; set -- $rsb; nrsb=$#; set -- $rsv; nrsv=$#
  [ "$nag" -ge 11 ] && [ "$na2a" -ge 6 ] && [ "$na2av" -ge 4 ] && [ "$nga" -ge 7 ] && [ "$nsc" -ge 7 ] &&
    [ "$nbc" -ge 2 ] && [ "$nar" -ge 4 ] && [ "$nrd" -ge 2 ] && [ "$nrsb" -ge 4 ] && [ "$nrsv" -ge 4 ] ||
    { echo "FAIL: registry read: $nag $na2a $na2av $nga $nsc $nbc $nar $nrd $nrsb $nrsv"; exit 1; }
  # one launch per allgather, the alltoall(v)s, gathers and scatters cycled alongside: every
  # algorithm at least once, each launch on the first q of 12 ranks for q in 1..5, 8, 11, 12,
  # regions of 3 ranks
  i=0
  for g in $ag; do
    t=$(echo $a2a | cut -d' ' -f$((i % na2a + 1))); v=$(echo $a2av | cut -d' ' -f$((i % na2av + 1)))
    gg=$(echo $ga | cut -d' ' -f$((i % nga + 1))); ss=$(echo $sc | cut -d' ' -f$((i % nsc + 1)))
    b=$(echo $bc | cut -d' ' -f$((i % nbc + 1))); r=$(echo $ar | cut -d' ' -f$((i % nar + 1)))
    d=$(echo $rd | cut -d' ' -f$((i % nrd + 1)))
    sb=$(echo $rsb | cut -d' ' -f$((i % nrsb + 1))); sv=$(echo $rsv | cut -d' ' -f$((i % nrsv + 1)))
    run $np -x LD_PRELOAD="$so" -x COLLSIM_ALLGATHER=$g -x COLLSIM_ALLTOALL=alltoall/$t \
        -x COLLSIM_ALLTOALLV=$v -x COLLSIM_GATHER=$gg -x COLLSIM_SCATTER=$ss \
        -x COLLSIM_BCAST=$b -x COLLSIM_ALLREDUCE=$r -x COLLSIM_REDUCE=$d \
        -x COLLSIM_REDUCE_SCATTER_BLOCK=$sb -x COLLSIM_REDUCE_SCATTER=reduce_scatter/$sv \
        -x COLLSIM_REGION_BLOCK=3 -x COLLSIM_REPORT=1 "$prog" --intercomm --some-q
    what="preload allgather/$g alltoall/$t alltoallv/$v gather/$gg scatter/$ss bcast/$b allreduce/$r reduce/$d reduce_scatter_block/$sb reduce_scatter/$sv"
    ok $rc "$what: exit status $rc"; has " checks, 0 failed"; ok $? "$what: data"
    # every call served, except those MPI lets no algorithm serve: one intercommunicator call
    # per process and collective (MPI_IN_PLACE alltoall(v)s are served: coll_adapt.h)
    has "allgather/$g: " && has "alltoall/$t: " && has "alltoallv/$v: "; ok $? "$what: report"
    [ "$(echo "$out" | grep -c "to the library (intercommunicator $np, MPI_IN_PLACE 0, count beyond an int 0, non-commutative operation 0, datatype with holes 0)")" -eq 3 ]
    ok $? "$what: fallbacks"
    # the calls with vector datatypes were served, packed by the algorithms
    for c in "allgather/$g" "alltoall/$t" "alltoallv/$v" "gather/$gg" "scatter/$ss"; do
      echo "$out" | grep "collsim_pmpi: $c: " | grep -qv "(0 packed)"; ok $? "$what: $c: vectors not packed"
    done
    # the gathers and scatters: every call served
    [ "$(echo "$out" | grep -cE "collsim_pmpi: (gather/$gg|scatter/$ss): [0-9]+ calls served \([0-9]+ packed\), 0 to the library")" -eq 2 ]
    ok $? "$what: gather and scatter served"
    # bcast: every call served; allreduce, reduce: the non-commutative calls of an algorithm for
    # commutative operations only go to the library, every other call is served
    echo "$out" | grep -qE "collsim_pmpi: bcast/$b: [0-9]+ calls served \(0 packed\), 0 to the library"
    ok $? "$what: bcast served"
    echo "$out" | grep -qE "collsim_pmpi: allreduce/$r: [0-9]+ calls served \(0 packed\), [0-9]+ to the library \(intercommunicator 0, MPI_IN_PLACE 0, count beyond an int 0, non-commutative operation [0-9]+, datatype with holes 0\)"
    ok $? "$what: allreduce served"
    echo "$out" | grep -qE "collsim_pmpi: reduce/$d: [0-9]+ calls served \(0 packed\), [0-9]+ to the library \(intercommunicator 0, MPI_IN_PLACE 0, count beyond an int 0, non-commutative operation [0-9]+, datatype with holes 0\)"
    ok $? "$what: reduce served"
    for c in "reduce_scatter_block/$sb" "reduce_scatter/$sv"; do
      echo "$out" | grep -qE "collsim_pmpi: $c: [0-9]+ calls served \(0 packed\), [0-9]+ to the library \(intercommunicator 0, MPI_IN_PLACE 0, count beyond an int 0, non-commutative operation [0-9]+, datatype with holes 0\)"
      ok $? "$what: $c served"
    done
    echo "$out" | grep -E "mpi_colls:|collsim_pmpi:" | sed "s|^|$np ranks: |"
    i=$((i + 1))
  done
  # node regions from shared memory (no COLLSIM_REGION_BLOCK), at a non-power of two
  run 6 -x LD_PRELOAD="$so" -x COLLSIM_ALLGATHER=hierarchical -x COLLSIM_ALLTOALLV=two_phase_bruck "$prog"
  ok $rc "node regions: exit status $rc"; has " checks, 0 failed"; ok $? "node regions: data"
  echo "$out" | grep "mpi_colls:" | sed "s|^|6 ranks, node regions: |"
  # MPI_Allgather on an intercommunicator through an intergroup algorithm (Kang et al.'s
  # Algorithm 1): the intercommunicator calls of mpi_colls are served, not sent to the library
  run 8 -x LD_PRELOAD="$so" -x COLLSIM_ALLGATHER=bruck -x COLLSIM_INTER_ALLGATHER=kang_segmented \
      -x COLLSIM_INTER_ALLGATHERV=inter_allgatherv/kang_segmented -x COLLSIM_REPORT=1 "$prog" --intercomm
  ok $rc "intergroup: exit status $rc"; has " checks, 0 failed"; ok $? "intergroup: data"
  has "inter_allgather/kang_segmented: 8 calls on intercommunicators served" &&
    has "allgather/bruck: " && has "to the library (intercommunicator 0, MPI_IN_PLACE 0"
  ok $? "intergroup: report"
  echo "$out" | grep -E "mpi_colls:|inter_allgather" | sed "s|^|8 ranks, intergroup: |"
  run 2 -x LD_PRELOAD="$so" -x COLLSIM_INTER_ALLGATHER=kang "$prog"
  [ $rc -ne 0 ] && has "COLLSIM_INTER_ALLGATHER=kang: no inter_allgather algorithm of that name (valid: root_gather_mpich,"
  ok $? "unknown intergroup name"
  # sockets from hwloc inside the shared-memory nodes: every process bound to a core, the multilevel
  # algorithm uses the socket level below node
  run 6 --bind-to core:overload-allowed -x LD_PRELOAD="$so" -x COLLSIM_ALLGATHER=loc_bruck_multilevel "$prog"
  ok $rc "socket regions: exit status $rc"; has " checks, 0 failed"; ok $? "socket regions: data"
  echo "$out" | grep "mpi_colls:" | sed "s|^|6 ranks bound, socket and node regions: |"
  # regions from a locality file (the format collsim writes for a simulated case): 10 ranks,
  # sockets of 2 and nodes of 4 (the last node holds 2), the multilevel algorithm at node level
  loc=$(mktemp /tmp/collsim-realmpi-loc-XXXXXX)
  { echo "levels socket node"; for r in 0 1 2 3 4 5 6 7 8 9; do echo "$((r / 2)) $((r / 4))"; done; } >"$loc"
  run 10 -x LD_PRELOAD="$so" -x COLLSIM_ALLGATHER=loc_bruck_multilevel -x COLLSIM_ALLTOALLV=padded_bruck \
      -x COLLSIM_LOCALITY="$loc" -x COLLSIM_REGION_LEVEL=node "$prog" --some-q
  ok $rc "locality file: exit status $rc"; has " checks, 0 failed"; ok $? "locality file: data"
  echo "$out" | grep "mpi_colls:" | sed "s|^|10 ranks, locality file: |"
  run 10 -x LD_PRELOAD="$so" -x COLLSIM_LOCALITY="$loc" -x COLLSIM_REGION_LEVEL=rack "$prog" --some-q
  [ $rc -ne 0 ] && has "COLLSIM_REGION_LEVEL=rack: not a locality level (the levels: socket, node)"
  ok $? "bad region level"
  run 12 -x LD_PRELOAD="$so" -x COLLSIM_LOCALITY="$loc" "$prog"
  [ $rc -ne 0 ] && has "COLLSIM_LOCALITY=$loc: $loc: rank 10 has no integer region at level 'socket'"
  ok $? "locality file for fewer ranks"
  run 2 -x LD_PRELOAD="$so" -x COLLSIM_LOCALITY="$loc" -x COLLSIM_REGION_BLOCK=2 "$prog"
  [ $rc -ne 0 ] && has "COLLSIM_REGION_BLOCK and COLLSIM_LOCALITY are both set"; ok $? "two region settings"
  rm -f "$loc"
  # an unknown name: a message naming the valid ones, exit status 2, no data run
  run 3 -x LD_PRELOAD="$so" -x COLLSIM_ALLTOALL=bruk "$prog"
  [ $rc -ne 0 ] && has "collsim_pmpi: COLLSIM_ALLTOALL=bruk: no alltoall algorithm of that name (valid: spread_out, pairwise, bruck_basic, bruck_modified, bruck_zero_rotation, bruck_zero_copy" && ! has "mpi_colls:"
  ok $? "unknown name"
  run 2 -x LD_PRELOAD="$so" -x COLLSIM_REGION_BLOCK=0 "$prog"
  [ $rc -ne 0 ] && has "COLLSIM_REGION_BLOCK=0: not a number of ranks >= 1"; ok $? "bad region block"
  ;;
mixed)
  # every collective of the PMPI layer with each process describing the data in its own
  # datatype (tests/realmpi/mpi_mixed.c), at 2, 3 and 5 ranks: the library alone, then one launch
  # per index of the longest algorithm list, each collective's algorithms cycled, so every
  # algorithm runs at every size; a call that hangs fails by the timeout
  def=$2 so=$3 prog=$4
  names() { tr -d '\n' <"$def" | grep -oE "COLLSIM_ALG\($1, *[a-z0-9_]+" | sed 's/.*, *//'; }
  colls="allgather alltoall alltoallv gather scatter bcast allreduce reduce reduce_scatter_block reduce_scatter inter_allgather inter_allgatherv"
  most=0
  for c in $colls; do set -- $(names $c); [ $# -ge 1 ] || { echo "FAIL: no $c algorithm in $def"; exit 1; }
    [ $# -gt $most ] && most=$#; done
  for np in 2 3 5; do
    out=$(timeout 60 nice -n 10 mpirun --oversubscribe -np $np "$prog" --intercomm 2>&1); rc=$?
    ok $rc "mixed, the library alone, $np ranks: exit status $rc (124: timed out)"
    has "mpi_mixed: " && has " checks, 0 failed"; ok $? "mixed, the library alone, $np ranks: data"
    echo "$out" | grep "mpi_mixed:" | sed "s|^|$np ranks, the library: |"
    i=0
    while [ $i -lt $most ]; do
      envs="" what=""
      for c in $colls; do
        set -- $(names $c); k=$((i % $# + 1)); a=$(eval echo \${$k})
        envs="$envs -x COLLSIM_$(echo $c | tr a-z A-Z)=$a" what="$what $c/$a"
      done
      out=$(timeout 60 nice -n 10 mpirun --oversubscribe -np $np -x LD_PRELOAD="$so" $envs \
            -x COLLSIM_REGION_BLOCK=2 -x COLLSIM_SEGMENT=12 -x COLLSIM_REPORT=1 "$prog" --intercomm 2>&1); rc=$?
      ok $rc "mixed, $np ranks,$what: exit status $rc (124: timed out)"
      has " checks, 0 failed"; ok $? "mixed, $np ranks,$what: data"
      # every call served by the algorithm, none sent to the library, calls with holes packed;
      # but the reductions (one datatype on every process) of a datatype with holes: per process
      # 7 allreduces, 7 reduces per root, 6 reduce_scatter(_block)s, all to the library
      for c in $colls; do
        set -- $(names $c); k=$((i % $# + 1)); a=$(eval echo \${$k})
        case $c in
        inter_*) echo "$out" | grep -qE "collsim_pmpi: $c/$a: [1-9][0-9]* calls on intercommunicators served" ;;
        allreduce|reduce|reduce_scatter*)
          case $c in allreduce) n=$((7 * np));; reduce) n=$((7 * np * np));; *) n=$((6 * np));; esac
          echo "$out" | grep -qE "collsim_pmpi: $c/$a: [1-9][0-9]* calls served \(0 packed\), $n to the library \(intercommunicator 0, MPI_IN_PLACE 0, count beyond an int 0, non-commutative operation 0, datatype with holes $n\)" ;;
        *) echo "$out" | grep -E "collsim_pmpi: $c/$a: [0-9]+ calls served \([1-9][0-9]* packed\), 0 to the library" |
             grep -qv "^collsim_pmpi: $c/$a: 0 calls" ;;
        esac
        ok $? "mixed, $np ranks, $c/$a: not every call served, or none packed"
      done
      echo "$out" | grep "mpi_mixed:" | sed "s|^|$np ranks,$what: |"
      i=$((i + 1))
    done
  done
  ;;
intergroup)
  for n in 7 8; do
    run $n "$2"
    ok $rc "intergroup at $n ranks: exit status $rc"; has " checks, 0 failed"; ok $? "intergroup at $n ranks: data"
    echo "$out" | grep "mpi_intergroup:" | sed "s|^|$n ranks: |"
  done
  ;;
compare)
  bench=$2 cli=$3 scen=$4 dir=$(mktemp -d /tmp/collsim-realmpi-cmp-XXXXXX)
  # the same cases measured (the driver under Open MPI, data checked) and predicted (SMPI)
  for alg in sparbit loc_bruck; do
    run 4 "$bench" --coll allgather --alg $alg --sizes 8,1024 --warmup 1 --iters 3 --csv "$dir/m-$alg.csv"
    ok $rc "collsim-mpibench $alg: exit status $rc"
    has "# collsim allgather/$alg np=4 mode=check" && [ "$(echo "$out" | grep -c ' Pass$')" -eq 2 ]
    ok $? "collsim-mpibench $alg: table"
  done
  { cat "$dir/m-sparbit.csv"; tail -n +2 "$dir/m-loc_bruck.csv"; } >"$dir/measured.csv"
  out=$("$cli" run "$scen" --out "$dir/sim" 2>&1); rc=$?
  ok $rc "simulated run: exit status $rc"
  out=$("$cli" compare "$dir/measured.csv" "$dir/sim/results.csv" 2>&1); rc=$?
  ok $rc "compare: exit status $rc"
  echo "$out"
  for alg in sparbit loc_bruck; do for b in 8 1024; do
    echo "$out" | grep -qE "^allgather/$alg +4 +$b +yahoo sequential +[0-9.]+ +[0-9.]+ +[0-9.]+$"
    ok $? "compare: allgather/$alg at $b bytes"
  done; done
  out=$("$cli" compare "$dir/measured.csv" "$dir/measured.csv" 2>&1); rc=$?
  [ $rc -eq 0 ] && ! echo "$out" | grep -q "no prediction"; ok $? "compare: a file beside itself"
  out=$("$cli" compare "$dir/measured.csv" 2>&1); rc=$?
  [ $rc -eq 2 ] && has "compare needs two files"; ok $? "compare: one file"
  rm -rf "$dir"
  ;;
esac
exit $fail
