#!/usr/bin/env bash
# Cross-builds the deploy runtime (the runtime library and accelc-run, nothing
# of the compiler) for the boards' cores with Debian's cross toolchains:
# AArch64 (MPSoC boards: Ultra96-V2, ZCU104, KV260) and ARMv7 (Zynq-7000:
# PYNQ-Z1), into $BUILD_DIR/deploy-aarch64 and deploy-armv7 (Release). The
# tests run them under qemu-user (tests/deploy/deploy_test.cc). ARCHS picks
# some of them.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
for arch in ${ARCHS:-aarch64 armv7}; do
  dir="$BUILD_DIR/deploy-$arch"
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DACCELC_WERROR=ON -DACCELC_DEPLOY_ONLY=ON \
      -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchain-$arch.cmake" > "$dir.configure.log" 2>&1 ||
      { cat "$dir.configure.log"; exit 1; }
  fi
  cmake --build "$dir" -j "${JOBS:-2}" --target accelc-run
done
