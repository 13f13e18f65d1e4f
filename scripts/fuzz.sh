#!/usr/bin/env bash
# The libFuzzer targets (tests/fuzz/README.md).
#
#   scripts/fuzz.sh smoke                  build, then replay every corpus and fuzz each target a few seconds
#   scripts/fuzz.sh campaign SECS [T...]   fuzz each target (all, or those named) SECS seconds, two at a
#                                          time; merge what they found into tests/fuzz/corpus and append
#                                          executions and coverage to tests/fuzz/campaigns.tsv
#   scripts/fuzz.sh seeds                  regenerate the seeds derived from the project's files
#
# The build (clang-14, ASan, UBSan, libFuzzer) lives in build-fuzz (FUZZ_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${FUZZ_BUILD_DIR:-build-fuzz}
TARGETS=(hwspec isa asm program bundle onnx reference npy sweep board)
source tests/sanitizers.sh

build() {
  if [ ! -f "$DIR/build.ninja" ]; then
    CC=clang-14 CXX=clang++-14 cmake -S . -B "$DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DACCELC_FUZZ=ON \
      -DACCELC_WERROR=OFF -DACCELC_BENCHMARKS=OFF >/dev/null
  fi
  CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1 cmake --build "$DIR" --target fuzz_targets -- -j "${JOBS:-2}"
}

# One target for SECS seconds; prints "target execs cov ft" from libFuzzer's final report. A run that
# ends with a finding is recorded too, with the seconds it ran and "finding" in the last column, so
# that the cumulative totals count every CPU-second fuzzed.
campaign_one() {
  local t=$1 secs=$2 work="$DIR/fuzz-work/campaign-$1" log="$DIR/fuzz-work/campaign-$1.log" began=$SECONDS end=clean
  mkdir -p "$work"
  "$DIR/tests/fuzz/fuzz_$t" -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 -max_total_time="$secs" \
    -artifact_prefix="$DIR/fuzz-work/artifacts/$t-" "$work" "tests/fuzz/corpus/$t" >"$log" 2>&1 || end=finding
  local execs cov ft ran=$((SECONDS - began))
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}' | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  # Keep only what adds coverage to the committed corpus.
  "$DIR/tests/fuzz/fuzz_$t" -merge=1 -rss_limit_mb=2048 -timeout=20 "tests/fuzz/corpus/$t" "$work" >/dev/null 2>&1
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%F)" "$t" "$ran" "${execs:-0}" "${cov:-0}" "${ft:-0}" "$end" \
    >>tests/fuzz/campaigns.tsv
  echo "fuzz_$t: $ran s, ${execs:-0} executions, cov ${cov:-0}, ft ${ft:-0}, $end"
  if [ "$end" = finding ]; then
    echo "fuzz_$t stopped with a finding; see $log and $DIR/fuzz-work/artifacts" >&2
    return 1
  fi
}

seeds() {
  local a=build/tools/accelc/accelc c=tests/fuzz/corpus
  [ -x "$a" ] || bash scripts/build.sh
  mkdir -p $c/board
  cp boards/*.yaml $c/board/
  $a asm examples/dense_relu.s -o $c/program/dense_relu.bin
  $a asm examples/ice40_dense.s -o $c/program/ice40_dense.bin
  for p in tiny vta-default wide; do $a asm tests/golden/forms.$p.s -o $c/program/forms.$p.bin; done
  for p in tiny vta-default; do
    $a compile models/digits/digits_int8.onnx --hw $p -o $c/bundle/digits_int8.$p.acx >/dev/null
  done
  /usr/bin/python3 tests/fuzz/make_onnx_seeds.py $c/onnx
  # The reference target starts from the ONNX node tests' models: one op each, every op family.
  local nodes
  nodes=$(mktemp -d)
  /usr/bin/python3 tests/onnx_node/gen_node_tests.py "$nodes" >/dev/null
  mkdir -p $c/reference
  for m in "$nodes"/node/test_*/model.onnx; do
    [ "$(stat -c %s "$m")" -lt 4096 ] && cp "$m" "$c/reference/$(basename "$(dirname "$m")").onnx"
  done
  rm -rf "$nodes"
}

case "${1:-smoke}" in
  smoke)
    build
    ctest --test-dir "$DIR" -j "${JOBS:-2}" --output-on-failure -L fuzz
    ;;
  campaign)
    secs=${2:?campaign needs the seconds per target}
    shift 2
    [ $# -gt 0 ] && TARGETS=("$@")
    build
    status=0
    for ((i = 0; i < ${#TARGETS[@]}; i += 2)); do
      campaign_one "${TARGETS[i]}" "$secs" &
      a=$!
      b=
      if [ $((i + 1)) -lt ${#TARGETS[@]} ]; then
        campaign_one "${TARGETS[i + 1]}" "$secs" &
        b=$!
      fi
      wait $a || status=1
      [ -z "$b" ] || wait $b || status=1
    done
    exit $status
    ;;
  seeds) seeds ;;
  *)
    echo "usage: scripts/fuzz.sh smoke | campaign SECONDS [TARGET...] | seeds" >&2
    exit 2
    ;;
esac
