#!/usr/bin/env bash
# The differential campaign (bench/differential_campaign.cc): CASES random
# programs per preset through fsim, the cycle model and the RTL, compared bit
# for bit and cycle for cycle; one process per preset. Disagreements are
# shrunk and written to OUT (default build/differential) as assembly.
#   scripts/differential.sh [CASES [FIRST_SEED]]
set -euo pipefail
cd "$(dirname "$0")/.."
CASES=${1:-2500}
FIRST=${2:-1}
OUT=${OUT:-build/differential}
mkdir -p "$OUT"
[ -x build/bench/differential_campaign ] || bash scripts/build.sh
status=0
for preset in tiny vta-default wide ice40; do
  build/bench/differential_campaign "$preset" "$CASES" "$FIRST" "$OUT" || status=1
done
exit $status
