#!/usr/bin/python3
"""Regenerates the ONNX backend node tests and converts their data to .npy.

    /usr/bin/python3 tests/onnx_node/gen_node_tests.py OUTDIR

Debian's python3-onnx (1.12) ships the generators of the backend tests
(onnx/backend/test/case/node/*.py) but not the generated data. Step 1 runs
those generators into OUTDIR (OUTDIR/node/test_*/ with model.onnx and
test_data_set_0/{input,output}_N.pb; the generator also writes OUTDIR/simple
and OUTDIR/real, which are not used here). Step 2 converts every TensorProto of
test_data_set_0 of every node case into
    test_data_set_0/in_<name>.npy  and  test_data_set_0/out_<name>.npy
named after the graph input/output (characters outside [A-Za-z0-9_.-] become
'_'), and writes OUTDIR/node/<case>/case.json describing the case. A case is
"plain" when every input and output is a tensor whose dtype is one of float32,
float64, float16, int8, uint8, int16, uint16, int32, int64 or bool (the dtypes
ort_node_tests.js reads);
cases that cannot be converted are kept with "plain": false and a "reason".
The output is deterministic: the generators seed numpy themselves, and cases
are visited in sorted order.
"""
import argparse
import json
import os
import re
import shutil
import sys
import time
import warnings

warnings.simplefilter("ignore")
import numpy as np  # noqa: E402

# onnx 1.12's generators use numpy aliases removed in numpy 1.24 (np.float in
# bernoulli.py, ...). Put them back before the generators are imported.
for _alias, _type in (("float", float), ("int", int), ("bool", bool), ("object", object)):
    if not hasattr(np, _alias):
        setattr(np, _alias, _type)

import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402
from onnx.backend.test import cmd_tools  # noqa: E402

# ONNX element types accepted as "plain".
PLAIN_TYPES = {onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE, onnx.TensorProto.FLOAT16,
               onnx.TensorProto.INT8, onnx.TensorProto.UINT8, onnx.TensorProto.INT16,
               onnx.TensorProto.UINT16, onnx.TensorProto.INT32, onnx.TensorProto.INT64,
               onnx.TensorProto.BOOL}


def sanitize(name):
    """File-name-safe version of a graph value name."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


def value_kind(value_info):
    """'tensor', 'sequence', 'optional', 'map' or 'unknown' for a graph input/output."""
    kind = value_info.type.WhichOneof("value")
    return {"tensor_type": "tensor", "sequence_type": "sequence",
            "optional_type": "optional", "map_type": "map"}.get(kind, "unknown")


def type_name(elem_type):
    """ONNX element type number -> numpy-style name, e.g. 1 -> 'float32', 11 -> 'float64'."""
    name = onnx.TensorProto.DataType.Name(elem_type).lower()
    return {"float": "float32", "double": "float64"}.get(name, name)


def convert_values(values, prefix, data_dir, reasons):
    """Converts <prefix>put_N.pb for each graph value; returns case.json entries.

    Appends a reason string to `reasons` for every value that is not plain."""
    entries, used = [], set()
    for idx, vi in enumerate(values):
        # Unique file name per side, even when two names sanitize to the same thing.
        base = f"{prefix}_{sanitize(vi.name)}"
        stem = base if base not in used else f"{base}_{idx}"
        used.add(stem)
        entry = {"name": vi.name, "npy": None, "kind": value_kind(vi), "dtype": None, "shape": None}
        entries.append(entry)
        pb = os.path.join(data_dir, f"{prefix}put_{idx}.pb")
        if entry["kind"] != "tensor":
            reasons.append(f"{vi.name}: {entry['kind']}")
            continue
        if not os.path.exists(pb):
            reasons.append(f"{vi.name}: no {os.path.basename(pb)}")
            continue
        try:
            tensor = onnx.TensorProto()
            with open(pb, "rb") as f:
                tensor.ParseFromString(f.read())
            entry["dtype"] = type_name(tensor.data_type)
            array = numpy_helper.to_array(tensor)
        except Exception as e:  # noqa: BLE001 - any bad data just makes the case non-plain
            reasons.append(f"{vi.name}: cannot convert ({type(e).__name__}: {e})")
            continue
        entry["shape"] = list(array.shape)
        declared = vi.type.tensor_type.elem_type
        if tensor.data_type not in PLAIN_TYPES:
            reasons.append(f"{vi.name}: dtype {entry['dtype']}")
        elif declared and declared != tensor.data_type:
            reasons.append(f"{vi.name}: data is {entry['dtype']}, graph says {type_name(declared)}")
        # Strings and other object arrays would need pickling: no .npy for them.
        # (np.array(order="C") keeps 0-d scalars 0-d; np.ascontiguousarray would make them 1-d.)
        if array.dtype.kind in "biufc":
            entry["npy"] = stem + ".npy"
            np.save(os.path.join(data_dir, entry["npy"]), np.array(array, order="C"),
                    allow_pickle=False)
    return entries


def convert_case(case_dir):
    """Writes the .npy files and case.json of one case; returns the case.json dict."""
    info = {"ops": [], "opsets": [], "inputs": [], "outputs": [], "plain": False}
    reasons = []
    try:
        model = onnx.load(os.path.join(case_dir, "model.onnx"))
        info["ops"] = [n.op_type if not n.domain else f"{n.domain}.{n.op_type}"
                       for n in model.graph.node]
        info["opsets"] = sorted(({"domain": o.domain, "version": o.version}
                                 for o in model.opset_import),
                                key=lambda o: (o["domain"], o["version"]))
        data_dir = os.path.join(case_dir, "test_data_set_0")
        initializers = {t.name for t in model.graph.initializer}
        inputs = [vi for vi in model.graph.input if vi.name not in initializers]
        info["inputs"] = convert_values(inputs, "in", data_dir, reasons)
        info["outputs"] = convert_values(model.graph.output, "out", data_dir, reasons)
        # Data files that no graph value claims mean the numbering is not what we assume.
        for prefix, count in (("in", len(inputs)), ("out", len(model.graph.output))):
            if os.path.exists(os.path.join(data_dir, f"{prefix}put_{count}.pb")):
                reasons.append(f"more {prefix}put_N.pb files than graph {prefix}puts")
    except Exception as e:  # noqa: BLE001 - keep the case, mark it non-plain
        reasons.append(f"cannot read case ({type(e).__name__}: {e})")
    info["plain"] = not reasons
    if reasons:
        info["reason"] = "; ".join(reasons)
    with open(os.path.join(case_dir, "case.json"), "w") as f:
        json.dump(info, f, indent=1, sort_keys=True)
        f.write("\n")
    return info


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: /usr/bin/python3 tests/onnx_node/gen_node_tests.py OUTDIR")
    outdir = argv[1]
    node_dir = os.path.join(outdir, "node")
    t0 = time.time()
    # Start node/ from scratch so that no case of an older run survives.
    if os.path.isdir(node_dir):
        shutil.rmtree(node_dir)
    os.makedirs(outdir, exist_ok=True)
    # Same as `python3 -m onnx.backend.test.cmd_tools generate-data -o OUTDIR`.
    cmd_tools.generate_data(argparse.Namespace(output=outdir, op_type=None))
    t1 = time.time()

    cases = sorted(d for d in os.listdir(node_dir) if d.startswith("test_"))
    plain = sum(convert_case(os.path.join(node_dir, c))["plain"] for c in cases)
    t2 = time.time()
    print(f"{len(cases)} cases, {plain} plain, {len(cases) - plain} not plain "
          f"(generate {t1 - t0:.1f} s, convert {t2 - t1:.1f} s) in {node_dir}")


if __name__ == "__main__":
    main(sys.argv)
