#!/usr/bin/env python3
"""Fails when a folder includes a folder on its own layer or a higher one.

The layers are those of the design (support 0, hwspec 1, isa 2, simulator/hls/
boards 3, runtime 4, compiler 5, tools 6). A file may include its own folder;
includes are written from the repository root, never with "../".

  check_layers.py ROOT        check the tree, one line per violation, exit 1 if any
  check_layers.py --self-test build a small bad tree and check that it is caught
"""
import os
import re
import sys
import tempfile

RANK = {"support": 0, "hwspec": 1, "isa": 2, "simulator": 3, "hls": 3, "boards": 3,
        "runtime": 4, "compiler": 5, "tools": 6}
EXTENSIONS = (".h", ".cc", ".cpp", ".inc", ".def")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def problems(root):
    for folder, rank in sorted(RANK.items()):
        for dirpath, _, names in os.walk(os.path.join(root, folder)):
            for name in sorted(names):
                if not name.endswith(EXTENSIONS):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        match = INCLUDE.match(line)
                        if not match:
                            continue
                        target = match.group(1)
                        where = "%s:%d" % (os.path.relpath(path, root), number)
                        if target.startswith("../") or "/../" in target:
                            yield '%s: relative include "%s"' % (where, target)
                            continue
                        head = target.split("/")[0]
                        if head in RANK and head != folder and RANK[head] >= rank:
                            yield '%s: %s (layer %d) includes "%s" (%s, layer %d)' % (
                                where, folder, rank, target, head, RANK[head])


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
        found = list(problems(root))
        expected = ["hwspec/rel.h:1", "isa/up.h:1", "simulator/side.h:1"]
        got = sorted(p.split(":")[0] + ":" + p.split(":")[1] for p in found)
        if got != expected:
            print("self-test failed: expected %s, found %s" % (expected, found))
            return 1
    print("self-test passed: 3 violations caught, 1 clean file accepted")
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
