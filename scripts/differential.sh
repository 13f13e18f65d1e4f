#!/usr/bin/env bash
# The differential campaign (bench/differential_campaign.cc), one process per
# target: on every preset, CASES random programs and CASES/5 random layers
# under random legal schedules; then on TARGETS random hwspecs
# (isa::randomTarget 1..TARGETS, each verilated once into the RTL cache),
# CASES/10 programs and CASES/25 layers each. Every case runs on fsim, the
# cycle model, the RTL and the HLS C++ (compiled once per hwspec into its
# cache), compared bit for bit and cycle for cycle; layers
# also against the reference kernel. Disagreements are shrunk and written to
# OUT (default build/differential) as assembly, with the random hwspecs.
#   scripts/differential.sh [CASES [FIRST_SEED [TARGETS]]]
# PRESETS (default: all four) names the presets to run; PRESETS= runs only the random hwspecs.
set -euo pipefail
cd "$(dirname "$0")/.."
CASES=${1:-2500}
FIRST=${2:-1}
TARGETS=${3:-40}
OUT=${OUT:-build/differential}
mkdir -p "$OUT"
[ -x build/bench/differential_campaign ] || bash scripts/build.sh
run=build/bench/differential_campaign
status=0
began=$SECONDS
for preset in ${PRESETS-tiny vta-default wide ice40}; do
  $run "$preset" "$CASES" "$FIRST" "$OUT" || status=1
  $run "$preset" $((CASES / 5)) "$FIRST" "$OUT" --layers || status=1
done
for ((s = 1; s <= TARGETS; s++)); do
  $run "random:$s" $((CASES / 10)) "$FIRST" "$OUT" 2>/dev/null || status=1
  $run "random:$s" $((CASES / 25)) "$FIRST" "$OUT" --layers 2>/dev/null || status=1
done
echo "differential campaign: $((SECONDS - began)) s; disagreements (if any) in $OUT"
exit $status
