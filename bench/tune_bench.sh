#!/usr/bin/env bash
# The schedule tuner on ResNet-18 for vta-default: accelc tune's wall time at
# its default budget, the tuned model's cycles on the cycle model against the
# targets (8,980,000 cycles; the untuned datapath bound frozen below), and the
# layers VTA also runs (layer1 to layer4) against VTA's 7,729,601 cycles, layer
# by layer. Usage: bench/tune_bench.sh [ACCELC [OUTDIR]]
set -euo pipefail
ACCELC=${1:-build/tools/accelc/accelc}
OUT=${2:-build/tune-bench}
MODEL=build/models/resnet18.onnx
CAL=build/models/resnet18_input.npy
[ -f "$MODEL" ] || { echo "no $MODEL: run the tests once (they export it)" >&2; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT"
start=$(date +%s.%N)
"$ACCELC" tune "$MODEL" --hw vta-default --calibrate "$CAL" --log "$OUT/resnet18.tune.jsonl" > "$OUT/tune.log"
end=$(date +%s.%N)
"$ACCELC" compile "$MODEL" --hw vta-default --calibrate "$CAL" -o "$OUT/untuned.acx" > /dev/null
"$ACCELC" compile "$MODEL" --hw vta-default --calibrate "$CAL" -o "$OUT/tuned.acx" \
  --tune-log "$OUT/resnet18.tune.jsonl" > /dev/null
"$ACCELC" report "$OUT/untuned.acx" --measure --json > "$OUT/untuned.json"
"$ACCELC" report "$OUT/tuned.acx" --measure --json > "$OUT/tuned.json"
grep -E "^(accelerator layers|[0-9]+ distinct)" "$OUT/tune.log"
/usr/bin/python3 - "$OUT/untuned.json" "$OUT/tuned.json" "$start" "$end" <<'PY'
import json, sys
DATAPATH_BOUND = 8800841  # the untuned datapath bound when the tuner was written (frozen)
TARGET, VTA = 8980000, 7729601
before, after = (json.load(open(p)) for p in sys.argv[1:3])
secs = float(sys.argv[4]) - float(sys.argv[3])
u, t = before["accelerator_measured_cycles"], after["accelerator_measured_cycles"]
print(f"accelc tune: {secs:.1f} s of wall time (default budget 60 s)")
print(f"| | cycles | vs the frozen datapath bound {DATAPATH_BOUND} | target |")
print("|---|---|---|---|")
print(f"| untuned | {u} | {100.0 * DATAPATH_BOUND / u:.2f}% | |")
print(f"| tuned | {t} | {100.0 * DATAPATH_BOUND / t:.2f}% | <= {TARGET}: {'meets' if t <= TARGET else 'misses by ' + str(t - TARGET)} |")
rows = {l["layer"]: l for l in after["layers"] if "measured_cycles" in l}
vta_layers = [name for name in rows if name.startswith(("/layer1", "/layer2", "/layer3", "/layer4"))]
total = sum(rows[n]["measured_cycles"] for n in vta_layers)
print(f"layer1 to layer4, tuned: {total} cycles against VTA's {VTA} ({'below' if total < VTA else 'above by ' + str(total - VTA)})")
print("| layer | measured | roofline | datapath bound | measured / datapath |")
print("|---|---|---|---|---|")
for n in vta_layers:
    r = rows[n]
    bound = max(r["roofline_cycles"], r.get("gemm_alu_cycles", 0))
    print(f"| {n} | {r['measured_cycles']} | {r['roofline_cycles']} | {bound} | {r['measured_cycles'] / bound:.3f} |")
PY
