#!/bin/bash
# Runs one fuzz target for a given time: tests/fuzz/run.sh TARGET SECONDS [BUILD_DIR]
#   TARGET: scenario, platform or results; BUILD_DIR: default build-fuzz in the source tree.
# Configures BUILD_DIR with clang and COLLSIM_FUZZ=ON when needed, builds fuzz_TARGET, copies the
# seeds (seeds.txt) into BUILD_DIR/fuzz/TARGET/seeds, then runs libFuzzer at nice 10 on the
# corpus BUILD_DIR/fuzz/TARGET/corpus (kept between runs), the seeds and regressions/TARGET.
# Findings go to BUILD_DIR/fuzz/TARGET/artifacts/, the log to BUILD_DIR/fuzz/TARGET/log; the end
# prints executions per second and coverage (cov: edges, ft: features). Extra libFuzzer options
# in FUZZ_ARGS, e.g. FUZZ_ARGS="-fork=1 -ignore_crashes=1" to go on after a finding.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
target=${1:?usage: run.sh TARGET SECONDS [BUILD_DIR] (TARGET: scenario, platform, results)}
seconds=${2:?usage: run.sh TARGET SECONDS [BUILD_DIR]}
build=$(realpath -m "${3:-$src/build-fuzz}") # absolute: the fuzzer runs in its work directory
case $target in scenario | platform | results) ;; *)
    echo "run.sh: unknown target '$target' (valid: scenario, platform, results)" >&2
    exit 2 ;;
esac
if [ ! -f "$build/CMakeCache.txt" ]; then
    CC=clang CXX=clang++ cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCOLLSIM_FUZZ=ON -DCOLLSIM_TESTS=OFF >/dev/null
fi
mkdir -p "$build/fuzz"
# one build at a time: two runs started together would both rebuild the host library
flock "$build/fuzz/.build.lock" nice cmake --build "$build" -j2 --target "fuzz_$target" >/dev/null
work=$build/fuzz/$target
rm -rf "$work/seeds"
mkdir -p "$work/corpus" "$work/seeds" "$work/artifacts"
while read -r t pattern; do
    [ "$t" = "$target" ] || continue
    for f in "$src"/$pattern; do
        [ -f "$f" ] && cp "$f" "$work/seeds/$(basename "$(dirname "$f")")-$(basename "$f")"
    done
done < <(grep -v '^#' "$here/seeds.txt")
echo "run.sh: fuzz_$target for ${seconds}s, seeds: $(ls "$work/seeds" | wc -l), corpus: $(ls "$work/corpus" | wc -l), log: $work/log"
dict=
[ "$target" = results ] || dict=$here/xml.dict
# the loaders' own temporary files go to a directory of the run
mkdir -p "$work/tmp"
set +e
(cd "$work" && TMPDIR=$work/tmp nice -n 10 "$build/tests/fuzz/fuzz_$target" corpus seeds \
    "$here/regressions/$target" -max_total_time="$seconds" -print_final_stats=1 \
    -detect_leaks=1 -timeout=30 -rss_limit_mb=2048 -artifact_prefix=artifacts/ \
    ${dict:+-dict="$dict"} ${FUZZ_ARGS:-}) >"$work/log" 2>&1
rc=$?
set -e
# the last status line (#N ... cov: ft: corp: exec/s:) and the final statistics
grep -E '^#[0-9]+' "$work/log" | tail -1 || true
grep -E '^stat::' "$work/log" || true
grep -E '^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written|collsim fuzz:)' "$work/log" | head -20 || true
echo "run.sh: exit $rc; corpus: $(ls "$work/corpus" | wc -l) inputs; findings: $(ls "$work/artifacts" | wc -l) in $work/artifacts"
exit $rc
