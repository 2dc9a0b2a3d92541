#!/usr/bin/env python3
"""No layer of src/ includes a header of a layer above it (DESIGN.md, "Layout";
STYLE.md: "Nothing reaches up a layer").

The lower layers and what each may not include:
  core        linalg, divergence, algorithms, active, capi
  linalg      divergence, algorithms, active, capi
  divergence  algorithms, active, capi
core is the bottom (linalg and divergence build on its views), so it reaching
into linalg would be a cycle as much as reaching into divergence.

An include is resolved as the compiler would: first next to the including
file, then from src/ (the include directory the build gives). System headers
(<...>) are not looked at. Prints every offending line as FILE:LINE and exits
1 if there is one.

Usage: check_layers.py SRC_DIR
Standard library only.
"""
import os
import re
import sys

FORBIDDEN = {
    "core": {"linalg", "divergence", "algorithms", "active", "capi"},
    "linalg": {"divergence", "algorithms", "active", "capi"},
    "divergence": {"algorithms", "active", "capi"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def layer_of(path, src):
    """The first folder of path under src, or None for a file outside src (kindred.h)."""
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(src))
    if rel.startswith(".."):
        return None
    parts = rel.split(os.sep)
    return parts[0] if len(parts) > 1 else None


def resolve(name, including_file, src):
    beside = os.path.join(os.path.dirname(including_file), name)
    if os.path.exists(beside):
        return beside
    return os.path.join(src, name)


def violations(src):
    for layer in sorted(FORBIDDEN):
        for root, _, files in os.walk(os.path.join(src, layer)):
            for file in sorted(files):
                if not file.endswith((".hpp", ".cpp", ".h", ".c")):
                    continue
                path = os.path.join(root, file)
                with open(path, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = layer_of(resolve(m.group(1), path, src), src)
                        if target in FORBIDDEN[layer]:
                            yield "%s:%d: %s includes %s, a layer above it: %s" % (
                                os.path.relpath(path, src), number, layer, target, line.strip())


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    src = sys.argv[1]
    for layer in FORBIDDEN:
        if not os.path.isdir(os.path.join(src, layer)):
            sys.exit("check_layers: no folder %s in %s" % (layer, src))
    found = list(violations(src))
    for v in found:
        print(v)
    if found:
        print("%d include(s) reach up a layer; move what is shared down instead" % len(found))
        return 1
    print("layers: no lower layer includes a higher one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
