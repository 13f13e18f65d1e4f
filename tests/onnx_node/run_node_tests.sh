#!/usr/bin/env bash
# Regenerates the ONNX node tests (cached in the build tree), runs them on
# onnxruntime, then on accelc's reference engine against the committed baseline.
# Usage: run_node_tests.sh SOURCE_DIR WORK_DIR NODE_RUNNER [--write-baseline]
set -euo pipefail
src=$1 work=$2 runner=$3
if [ ! -f "$work/node/test_abs/case.json" ]; then
  /usr/bin/python3 "$src/tests/onnx_node/gen_node_tests.py" "$work"
fi
if [ ! -f "$work/ort_result.json" ]; then
  node "$src/tests/onnx_node/ort_node_tests.js" "$work" "$work/ort_result.json" | tail -n 1
fi
"$runner" "$work" "$work/ort_result.json" "$src/tests/onnx_node/baseline.json" "${4:-}"
