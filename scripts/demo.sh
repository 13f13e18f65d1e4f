#!/usr/bin/env bash
# The main job on the bundled default: installs what is missing, builds, then
# assembles examples/dense_relu.s for the vta-default preset, runs it on the
# functional simulator and prints what it computed and the counters.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
ACCELC="$BUILD_DIR/tools/accelc/accelc"
mkdir -p out
"$ACCELC" asm examples/dense_relu.s -o out/dense_relu.bin
"$ACCELC" sim out/dense_relu.bin --engine fsim --input x=examples/dense_relu_input.npy --output out/dense_relu
