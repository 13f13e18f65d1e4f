#!/usr/bin/env python3
"""Fails when an include breaks the layers of the design.

Three rules:
- A folder includes only folders on a lower layer (support 0, hwspec 1, isa 2,
  simulator/hls 3, boards 4, runtime 5, compiler 6, tools 7), or itself.
- Inside a folder, a sub-folder that is a CMake target of its own (a
  sub-target) includes only sub-targets on a lower sub-layer, or itself:
  simulator/cycle may use simulator/functional and simulator/timing, but
  simulator/rtl and simulator/cycle never include each other.
- A header in X/internal/ is private to X: only files under X, in X's own
  target, include it.
Includes are written from the repository root, never with "../".

  check_layers.py ROOT        check the tree, one line per violation, exit 1 if any
  check_layers.py --self-test build a small bad tree and check that it is caught
"""
import os
import re
import sys
import tempfile

RANK = {"support": 0, "hwspec": 1, "isa": 2, "simulator": 3, "hls": 3, "boards": 4,
        "runtime": 5, "compiler": 6, "tools": 7}
# Per folder: sub-folder -> (its target, the target's sub-layer). Sub-folders
# not named here belong to the folder's own target, "", on sub-layer 0.
SUBTARGETS = {
    "simulator": {"functional": ("functional", 0), "timing": ("timing", 0),
                  "cycle": ("cycle", 1), "rtl": ("rtl", 1)},
    "runtime": {"sim_devices": ("sim_devices", 1)},
    "compiler": {"frontend": ("frontend", 1), "host": ("host", 1), "dse": ("dse", 2)},
}
EXTENSIONS = (".h", ".cc", ".cpp", ".inc", ".def")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def subtarget(path):
    """(folder, target, sub-layer) of a path written from the root."""
    parts = path.split("/")
    folder = parts[0]
    sub = parts[1] if len(parts) > 2 else ""
    target, rank = SUBTARGETS.get(folder, {}).get(sub, ("", 0))
    return folder, target, rank


def check_include(source, target):
    """The problem with `source` including `target` (both from the root), or None."""
    if target.startswith("../") or "/../" in target:
        return 'relative include "%s"' % target
    head = target.split("/")[0]
    folder = source.split("/")[0]
    if head not in RANK:
        return None
    if head != folder:
        if RANK[head] >= RANK[folder]:
            return '%s (layer %d) includes "%s" (%s, layer %d)' % (folder, RANK[folder], target, head, RANK[head])
        return None
    _, src_target, src_rank = subtarget(source)
    _, dst_target, dst_rank = subtarget(target)
    if "/internal/" in target:
        owner = target.split("/internal/")[0]
        if not source.startswith(owner + "/") or subtarget(owner + "/x/y")[1] != src_target:
            return 'includes "%s", private to %s' % (target, owner)
    if src_target != dst_target and dst_rank >= src_rank:
        kind = "sideways" if dst_rank == src_rank else "upward"
        return '%s/%s includes "%s" (a %s sub-target)' % (folder, src_target or "", target, kind)
    return None


def problems(root):
    for folder in sorted(RANK):
        for dirpath, _, names in os.walk(os.path.join(root, folder)):
            for name in sorted(names):
                if not name.endswith(EXTENSIONS):
                    continue
                path = os.path.join(dirpath, name)
                source = os.path.relpath(path, root).replace(os.sep, "/")
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        match = INCLUDE.match(line)
                        if not match:
                            continue
                        problem = check_include(source, match.group(1))
                        if problem:
                            yield "%s:%d: %s" % (source, number, problem)


def self_test():
    with tempfile.TemporaryDirectory() as root:
        def write(path, text):
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        write("isa/ok.h", '#include "support/status.h"\n#include "isa/other.h"\n')
        write("isa/up.h", '#include "simulator/functional/fsim.h"\n')
        write("simulator/side.h", '#include "hls/gen.h"\n')
        write("hwspec/rel.h", '#include "../support/x.h"\n')
        write("boards/up.h", '#include "runtime/device.h"\n')
        write("boards/ok.h", '#include "hls/gen.h"\n#include "simulator/cycle/cycle_sim.h"\n')
        write("simulator/cycle/ok.h", '#include "simulator/functional/fsim.h"\n#include "simulator/timing/t.h"\n')
        write("simulator/rtl/side.h", '#include "simulator/cycle/cycle_sim.h"\n')
        write("simulator/functional/up.h", '#include "simulator/cycle/cycle_sim.h"\n')
        write("runtime/kernels/ok.cc", '#include "runtime/internal/kernels.h"\n')
        write("runtime/sim_devices/private.cc", '#include "runtime/internal/kernels.h"\n')
        found = list(problems(root))
        expected = ["boards/up.h:1", "hwspec/rel.h:1", "isa/up.h:1", "runtime/sim_devices/private.cc:1",
                    "simulator/functional/up.h:1", "simulator/rtl/side.h:1", "simulator/side.h:1"]
        got = sorted(p.split(":")[0] + ":" + p.split(":")[1] for p in found)
        if got != expected:
            print("self-test failed: expected %s, found %s" % (expected, found))
            return 1
    print("self-test passed: %d violations caught, 4 clean files accepted" % len(expected))
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    found = list(problems(sys.argv[1] if len(sys.argv) > 1 else "."))
    for p in found:
        print(p)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
