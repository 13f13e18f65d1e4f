#!/usr/bin/env bash
# Synthesizes the whole accelerator (accelc_core) for each preset with Yosys
# and prints one table row per preset and target: LUTs, flip-flops, DSPs,
# block RAMs, carry cells, and on iCE40 the hwspec's estimate of DSPs and
# block RAMs, with Yosys's wall time. Usage: bench/synth_presets.sh
# [ACCELC [OUTDIR [PRESET:TARGET[:no-share]...]]]; by default tiny and ice40
# on iCE40, and vta-default and wide on iCE40 without Yosys's resource
# sharing (its SAT-based `share` pass does not finish on their ALUs in
# reasonable time; those counts are upper bounds).
set -euo pipefail
ACCELC=${1:-build/tools/accelc/accelc}
OUT=${2:-build/synth-presets}
shift $(( $# > 2 ? 2 : $# ))
RUNS=("$@")
[ ${#RUNS[@]} -gt 0 ] || RUNS=(tiny:ice40 ice40:ice40 vta-default:ice40:no-share wide:ice40:no-share)
mkdir -p "$OUT"
echo "| preset | target | LUTs | FFs | DSPs | BRAMs | carries | estimate (DSPs, BRAMs) | Yosys s |"
echo "|---|---|---|---|---|---|---|---|---|"
for run in "${RUNS[@]}"; do
  IFS=: read -r preset target mode <<< "$run"
  flags=()
  [ "${mode:-}" = no-share ] && flags=(--no-share)
  start=$(date +%s)
  json=$("$ACCELC" synth --hw "$preset" --target "$target" --top accelc_core -o "$OUT/$preset-$target" --json "${flags[@]}")
  secs=$(( $(date +%s) - start ))
  field() { echo "$json" | sed -n "s/^  \"$1\": \([0-9]*\),*$/\1/p" | head -1; }
  est=$(echo "$json" | tr -d '\n ' | sed -n 's/.*"estimate":{"dsps":\([0-9]*\),"brams":\([0-9]*\)}.*/\1, \2/p')
  echo "| $preset | $target${mode:+ ($mode)} | $(field luts) | $(field ffs) | $(field dsps) | $(field brams) | $(field carries) | ${est:--} | $secs |"
done
