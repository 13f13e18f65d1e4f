#!/usr/bin/env bash
# The design-space sweep of ResNet-18 around vta-default (bench/resnet18_sweep.yaml,
# 20 points) on the local engine: its wall time and time per point, and the
# fastest design that keeps vta-default's MAC array, DRAM, queues and clock and
# has no more on-chip SRAM, with its share of the roofline and its resource
# estimate beside vta-default's. Usage: bench/dse_bench.sh [ACCELC [OUTDIR [JOBS]]]
set -euo pipefail
ACCELC=${1:-build/tools/accelc/accelc}
OUT=${2:-build/dse-bench}
JOBS=${3:-2}
MODEL=build/models/resnet18.onnx
[ -f "$MODEL" ] || { echo "no $MODEL: run the tests once (they export it)" >&2; exit 1; }
rm -rf "$OUT"
start=$(date +%s.%N)
"$ACCELC" dse "$MODEL" --calibrate build/models/resnet18_input.npy --sweep bench/resnet18_sweep.yaml -o "$OUT" --jobs "$JOBS" \
  > "$OUT.log"
end=$(date +%s.%N)
/usr/bin/python3 - "$OUT/results.jsonl" "$start" "$end" "$JOBS" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
secs = float(sys.argv[3]) - float(sys.argv[2])
jobs = int(sys.argv[4])
print(f"{len(rows)} points in {secs:.1f} s on {jobs} processes: {secs / len(rows):.2f} s per point of wall time, "
      f"{secs * jobs / len(rows):.2f} s of a core per point")
kib = lambda v: int(v[:-3]) if v.endswith("KiB") else int(v) // 1024
base = {"timing.alu_ii": "2", "buffers.acc": "128KiB", "buffers.input": "32KiB"}  # vta-default's values
sram = lambda r: kib(r["values"]["buffers.acc"]) + kib(r["values"]["buffers.input"])
ok = [r for r in rows if r["ok"]]
ref = next(r for r in ok if r["values"] == base)
keep = [r for r in ok if sram(r) <= sram(ref)]
best = min(keep, key=lambda r: r["cycles"])
pct = lambda r: 100.0 * r["roofline_cycles"] / r["cycles"]
print(f"failed points: {len(rows) - len(ok)} (recorded with their errors)")
print("| design | values | cycles | % of roofline | DSP | BRAM18 | URAM | LUT | FF |")
print("|---|---|---|---|---|---|---|---|---|")
for name, r in (("vta-default", ref), ("best within its SRAM", best)):
    v = ", ".join(f"{k}={x}" for k, x in r["values"].items())
    res = r["resources"]
    print(f"| {name} (point {r['point']}) | {v} | {r['cycles']} | {pct(r):.2f} | {res['dsp']} | {res['bram18']} | "
          f"{res['uram']} | {res['lut']} | {res['ff']} |")
PY
