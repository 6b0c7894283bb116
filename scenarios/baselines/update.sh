#!/usr/bin/env bash
# Regenerates the committed baseline of predicted times. Do it only when a
# change of predicted times is intended, and say why in the commit message.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$root/build/regression-baseline"
"$root/collsim" run "$root/scenarios/regression-small.xml" --out "$out" --force -j 1
# shows what moved, then rewrites the baseline (in key order; refused if a case failed)
"$root/collsim" check "$out/results.csv" --baseline "$root/scenarios/baselines/regression-small.csv" --update
