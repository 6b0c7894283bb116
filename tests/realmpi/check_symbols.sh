#!/bin/sh
# RealMpiLibrary.Symbols: libcollsim_algorithms (static and shared) defines every
# function of algorithms/algorithms.def and the registry of collsim.h, and holds
# no SMPI, SimGrid or driver symbol, defined or undefined.
# usage: check_symbols.sh ALGORITHMS_DEF LIB.a LIB.so
set -u
def=$1; shift
fns=$(tr -d '\n' <"$def" | grep -oE 'COLLSIM_ALG\([a-z_]+, *[a-z0-9_]+, *[a-z0-9_]+' | sed 's/.*, *//' | grep -vx function)
n=$(echo "$fns" | wc -w)
[ "$n" -ge 21 ] || { echo "FAIL: only $n functions read from $def"; exit 1; }
fail=0
for lib in "$@"; do
  if [ "${lib%.a}" != "$lib" ]; then syms=$(nm "$lib"); else syms=$(nm -D "$lib"); fi
  for f in $fns collsim_alg_count collsim_alg_at collsim_alg_find collsim_alg_names \
           collsim_set_block_regions coll_loc_init coll_loc_set_rank_map; do
    echo "$syms" | grep -qE " T $f\$" || { echo "FAIL: $lib does not define $f"; fail=1; }
  done
  # symbol names only; SimGrid's and SMPI's prefixes, the driver's and host's (sim/)
  bad=$(echo "$syms" | awk '{print $NF}' |
        grep -iE 'smpi|simgrid|xbt_|s4u|^sg_|^cs_|^bench_|^datacheck|^fold_|^account_|^v_fold' || true)
  [ -z "$bad" ] || { echo "FAIL: $lib holds simulator or driver symbols:"; echo "$bad"; fail=1; }
  echo "$lib: $n algorithms and the registry defined, no SMPI/SimGrid/driver symbol"
done
exit $fail
