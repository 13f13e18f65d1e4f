#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (ctest; `heavy` tests included).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
ctest --test-dir "$BUILD_DIR" -j "${JOBS:-2}" --output-on-failure
