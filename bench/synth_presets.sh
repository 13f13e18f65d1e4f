#!/usr/bin/env bash
# Synthesizes the whole accelerator (accelc_core) for each preset with Yosys
# and prints one table row per preset and target: LUTs, flip-flops, DSPs,
# block RAMs, carry cells, and on iCE40 the hwspec's estimate of DSPs and
# block RAMs, with Yosys's wall time. Usage: bench/synth_presets.sh
# [ACCELC [OUTDIR [PRESET...]]]; the default presets are tiny, ice40 and
# vta-default on iCE40 and vta-default on a 7-series part.
set -euo pipefail
ACCELC=${1:-build/tools/accelc/accelc}
OUT=${2:-build/synth-presets}
shift $(( $# > 2 ? 2 : $# ))
RUNS=("$@")
[ ${#RUNS[@]} -gt 0 ] || RUNS=(tiny:ice40 ice40:ice40 vta-default:ice40 vta-default:xilinx)
mkdir -p "$OUT"
echo "| preset | target | LUTs | FFs | DSPs | BRAMs | carries | estimate (DSPs, BRAMs) | Yosys s |"
echo "|---|---|---|---|---|---|---|---|---|"
for run in "${RUNS[@]}"; do
  preset=${run%%:*} target=${run##*:}
  start=$(date +%s)
  json=$("$ACCELC" synth --hw "$preset" --target "$target" --top accelc_core -o "$OUT/$preset-$target" --json)
  secs=$(( $(date +%s) - start ))
  field() { echo "$json" | sed -n "s/^  \"$1\": \([0-9]*\),*$/\1/p" | head -1; }
  est=$(echo "$json" | tr -d '\n ' | sed -n 's/.*"estimate":{"dsps":\([0-9]*\),"brams":\([0-9]*\)}.*/\1, \2/p')
  echo "| $preset | $target | $(field luts) | $(field ffs) | $(field dsps) | $(field brams) | $(field carries) | ${est:--} | $secs |"
done
