#!/usr/bin/env bash
# Installs what is missing, builds (the deploy runtime cross-built for the
# boards' cores too, scripts/build_deploy.sh), and runs every test (ctest;
# `heavy` tests included); then builds the ASan+UBSan configuration into build-asan and runs
# the non-heavy tests under it, and builds the libFuzzer targets (clang-14,
# ASan+UBSan) into build-fuzz and runs their smoke tests: every corpus
# replayed, a few seconds of fuzzing each (SANITIZE=0 skips both).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build.sh
bash scripts/build_deploy.sh
BUILD_DIR=${BUILD_DIR:-build}
ctest --test-dir "$BUILD_DIR" -j "${JOBS:-2}" --output-on-failure
if [ "${SANITIZE:-1}" != "0" ]; then
  ASAN_DIR=${ASAN_BUILD_DIR:-build-asan}
  source tests/sanitizers.sh
  BUILD_DIR=$ASAN_DIR CMAKE_EXTRA="-DACCELC_SANITIZE=ON -DACCELC_BENCHMARKS=OFF" bash scripts/build.sh
  ctest --test-dir "$ASAN_DIR" -j "${JOBS:-2}" --output-on-failure -LE heavy
  bash scripts/fuzz.sh smoke
fi
