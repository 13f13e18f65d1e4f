#!/usr/bin/env bash
# Configures and builds accelc into build/ (RelWithDebInfo, warnings as errors,
# ccache when present). Re-running only rebuilds what changed. BUILD_DIR picks
# another folder; CMAKE_EXTRA adds options to a first configure.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
# ccache keys on paths relative to the checkout, so that another clone (CI's)
# reuses what this one compiled.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  # shellcheck disable=SC2086
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DACCELC_WERROR=ON ${CMAKE_EXTRA:-}
fi
cmake --build "$BUILD_DIR" -j "${JOBS:-2}"
