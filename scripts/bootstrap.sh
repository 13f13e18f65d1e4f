#!/usr/bin/env bash
# Installs the Debian packages accelc needs, only those that are missing.
# Idempotent: a second run installs nothing and does not touch the network.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config ccache git
  libyaml-cpp-dev libcli11-dev nlohmann-json3-dev zlib1g-dev libimath-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3
  libonnx-dev libprotobuf-dev protobuf-compiler
  libsystemc-dev verilator yosys nextpnr-ice40 fpga-icestorm clang-14 libfuzzer-14-dev llvm-14-dev
  libdnnl-dev ocl-icd-opencl-dev libhalide14-0-dev lld-14 g++-aarch64-linux-gnu g++-arm-linux-gnueabihf qemu-user
  python3-torch python3-torchvision python3-onnx python3-sklearn python3-numpy
  openmpi-bin libopenmpi-dev  # accelc dse --engine mpi
  slurmctld slurmd slurm-client munge  # accelc dse --engine slurm, tested on a one-node cluster
  chromium  # the HTML reports, opened headless by a heavy test
  # The deploy runtime cross-built for the boards' cores (scripts/build_deploy.sh) links these
  # architectures' libraries, and qemu-user runs it with their C library.
  libyaml-cpp0.7:arm64 zlib1g:arm64 libimath-3-1-29:arm64 libyaml-cpp0.7:armhf zlib1g:armhf libimath-3-1-29:armhf
)

missing=()
# Node.js and npm usually come with the machine; Debian's are the fallback.
command -v npm >/dev/null 2>&1 || PACKAGES+=(nodejs npm)
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "bootstrap: all ${#PACKAGES[@]} packages present"
else
  echo "bootstrap: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  # Debian's multiarch: the boards' architectures beside this one (no network; a no-op when present).
  for arch in arm64 armhf; do
    dpkg --print-foreign-architectures | grep -qx "$arch" || $SUDO dpkg --add-architecture "$arch"
  done
  # A mirror caught mid-sync fails one index now and then ("File has unexpected
  # size"). Retry; if an index still fails, go on with what was fetched: the
  # install below fails, naming the package, only if one is really not there.
  for try in 1 2 3; do
    $SUDO apt-get update -qq && break
    if [ "$try" -eq 3 ]; then
      echo "bootstrap: apt-get update failed 3 times; installing from the indexes it fetched" >&2
    else
      sleep 10
    fi
  done
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm peer: onnxruntime-node, the reference executor used by tools/ort/run_ort.js.
# ONNXRUNTIME_NODE_INSTALL=skip stops its postinstall from downloading GPU binaries
# (offline install); the bundled CPU binary is all we use.
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ -d "$REPO/tools/ort/node_modules/onnxruntime-node" ]; then
  echo "bootstrap: onnxruntime-node present"
else
  echo "bootstrap: installing onnxruntime-node (npm ci in tools/ort)"
  (cd "$REPO/tools/ort" && ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund)
fi
