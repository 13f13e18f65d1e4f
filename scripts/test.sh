#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (ctest; `heavy` tests
# included); then builds the ASan+UBSan configuration into build-asan and runs
# the non-heavy tests under it (SANITIZE=0 skips that part).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
ctest --test-dir "$BUILD_DIR" -j "${JOBS:-2}" --output-on-failure
if [ "${SANITIZE:-1}" != "0" ]; then
  ASAN_DIR=${ASAN_BUILD_DIR:-build-asan}
  source tests/sanitizers.sh
  BUILD_DIR=$ASAN_DIR CMAKE_EXTRA="-DACCELC_SANITIZE=ON -DACCELC_BENCHMARKS=OFF" bash scripts/build.sh
  ctest --test-dir "$ASAN_DIR" -j "${JOBS:-2}" --output-on-failure -LE heavy
fi
