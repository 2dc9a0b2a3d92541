#!/usr/bin/env python3
"""The exported dynamic symbols of libkindred are exactly the functions the
public header declares KINDRED_API, and exactly the names of the linker
version script; each is versioned and each declaration has a Doxygen comment
block right before it.

Usage: check_exports.py LIBKINDRED.so include/kindred.h src/kindred.map [NM]
Standard library only.
"""
import re
import subprocess
import sys


def exported_symbols(library, nm):
    """name -> version node, for every defined dynamic symbol except the version nodes themselves."""
    out = subprocess.run([nm, "-D", "--defined-only", library], check=True, capture_output=True,
                         text=True).stdout
    symbols = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        kind, name = fields[-2], fields[-1]
        if kind == "A":  # the version node (KINDRED_0.1) is an absolute symbol
            continue
        base, _, version = name.partition("@")
        symbols[base] = version.lstrip("@")
    return symbols


DECLARATION = re.compile(r"KINDRED_API\s+[^;{}()]*?\b(kindred_\w+)\s*\(", re.S)


def header_functions(header_text):
    """name -> offset of its declaration (the start of its KINDRED_API line)."""
    found = {}
    for m in DECLARATION.finditer(header_text):
        if header_text[m.start() - 8:m.start()].endswith("#define "):
            continue
        found[m.group(1)] = header_text.rfind("\n", 0, m.start()) + 1
    return found


def has_doxygen_block_before(header_text, offset):
    before = header_text[:offset].rstrip()
    if not before.endswith("*/"):
        return False
    start = before.rfind("/*")
    return start >= 0 and before[start:].startswith("/**") and "*/" not in before[start:-2]


def map_names(map_text):
    text = re.sub(r"/\*.*?\*/", "", map_text, flags=re.S)
    names = set()
    for block in re.finditer(r"global:(.*?)(?:local:|\})", text, re.S):
        names.update(n.strip() for n in block.group(1).split(";") if n.strip())
    return names


def main(argv):
    if len(argv) not in (4, 5):
        print(__doc__)
        return 2
    library, header_path, map_path = argv[1:4]
    nm = argv[4] if len(argv) == 5 else "nm"
    with open(header_path, encoding="utf-8") as f:
        header_text = f.read()
    with open(map_path, encoding="utf-8") as f:
        map_text = f.read()

    exported = exported_symbols(library, nm)
    declared = header_functions(header_text)
    listed = map_names(map_text)
    problems = []

    def compare(a_name, a, b_name, b):
        for s in sorted(set(a) - set(b)):
            problems.append(f"{s}: in {a_name} but not in {b_name}")

    compare("the library's exports", exported, "the header", declared)
    compare("the header", declared, "the library's exports", exported)
    compare("the version script", listed, "the header", declared)
    compare("the header", declared, "the version script", listed)
    for name, version in sorted(exported.items()):
        if not version.startswith("KINDRED_"):
            problems.append(f"{name}: exported without a KINDRED_ version node ({version or 'unversioned'})")
    for name, offset in sorted(declared.items()):
        if not has_doxygen_block_before(header_text, offset):
            problems.append(f"{name}: no Doxygen comment block (/** ... */) right before its declaration")
    if len(declared) < 10:
        problems.append(f"only {len(declared)} KINDRED_API functions found in the header: the parser is broken")

    for p in problems:
        print("FAIL", p)
    print(f"{len(exported)} exported, {len(declared)} declared, {len(listed)} in the version script, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
