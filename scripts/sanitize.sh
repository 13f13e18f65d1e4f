#!/usr/bin/env bash
# Everything under ASan+UBSan: the ASan build's whole suite, heavy tests
# included (CI runs only the non-heavy ones: the heavy ones take long under
# the sanitizers), and the fuzz corpora replayed.
set -euo pipefail
cd "$(dirname "$0")/.."
source tests/sanitizers.sh
BUILD_DIR=${ASAN_BUILD_DIR:-build-asan} CMAKE_EXTRA="-DACCELC_SANITIZE=ON -DACCELC_BENCHMARKS=OFF" bash scripts/build.sh
ctest --test-dir "${ASAN_BUILD_DIR:-build-asan}" -j "${JOBS:-2}" --output-on-failure
bash scripts/fuzz.sh smoke
