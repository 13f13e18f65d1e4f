#!/usr/bin/env bash
# The main job on the bundled default: installs what is missing, builds, then
# compiles the digits CNN (the int8 QDQ export, and the fp32 export calibrated
# on its calibration set) for the vta-default accelerator, runs the whole test
# split on the functional simulator and on the reference engine, and prints
# both accuracies and the per-layer report; then one image on the cycle model,
# with its cycles and utilization, and on the accelerator's RTL (verilated on
# first use), which must give the same outputs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
ACCELC="$BUILD_DIR/tools/accelc/accelc"
DIGITS=models/digits
mkdir -p out
for model in digits_int8 digits_fp32; do
  echo "== $model on vta-default"
  "$ACCELC" compile "$DIGITS/$model.onnx" --hw vta-default --calibrate "$DIGITS/calib.npy" -o "out/$model.acx" --report
  for engine in fsim ref; do
    "$ACCELC" run "out/$model.acx" --engine "$engine" --input input="$DIGITS/test_x.npy" \
      --labels "$DIGITS/test_y.npy" --output "out/$model-$engine"
  done
  cmp "out/$model-fsim/logits.npy" "out/$model-ref/logits.npy" && echo "fsim and the reference agree bit for bit"
done
echo "== digits_int8, one image, on the cycle model"
"$ACCELC" run out/digits_int8.acx --engine cycle --input input="$DIGITS/input.npy" --output out/digits_int8-cycle
echo "== digits_int8, the same image, on the RTL"
"$ACCELC" run out/digits_int8.acx --engine rtl --input input="$DIGITS/input.npy" --output out/digits_int8-rtl
cmp out/digits_int8-cycle/logits.npy out/digits_int8-rtl/logits.npy && echo "the RTL and the cycle model agree bit for bit"
echo "== digits_int8, the same image, on the HLS C++ (C-simulation)"
"$ACCELC" run out/digits_int8.acx --engine hls --input input="$DIGITS/input.npy" --output out/digits_int8-hls
cmp out/digits_int8-cycle/logits.npy out/digits_int8-hls/logits.npy && echo "the HLS C++ and the cycle model agree bit for bit"
