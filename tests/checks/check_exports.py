#!/usr/bin/env python3
"""The exported dynamic symbols of libkindred are exactly the functions the
public header declares KINDRED_API, and exactly the names of the linker
version script; each is versioned and each declaration has a Doxygen comment
block right before it. The header's rules (docs/conventions.md, "The public
header: rules") that a script can check: every exported function starts with
kindred_; no getter has a get_ prefix; a function returning kindred_status
documents @return, and one that fills a caller buffer (a `capacity`
parameter) names KINDRED_E_BUFFER_TOO_SMALL there; no int parameter is named
layout, status or type (those take the enum); every function of the
experimental section says "Experimental".

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


def doxygen_block_before(header_text, offset):
    before = header_text[:offset].rstrip()
    return before[before.rfind("/**"):] if has_doxygen_block_before(header_text, offset) else ""


ENUM_PARAMETERS = ("layout", "status", "type")
EXPERIMENTAL_MARKER = "@name Experimental"


def rule_problems(header_text, declared):
    """The naming / signature / documentation rules, for each declared function."""
    problems = []
    experimental_at = header_text.find(EXPERIMENTAL_MARKER)
    if experimental_at < 0:
        problems.append("the header has no experimental section ('%s')" % EXPERIMENTAL_MARKER)
    for name, offset in sorted(declared.items()):
        declaration = header_text[offset:header_text.index(";", offset)]
        returns, _, params = declaration.partition(name)
        doc = doxygen_block_before(header_text, offset)
        if not name.startswith("kindred_"):
            problems.append(f"{name}: an exported name must start with kindred_")
        if "_get_" in name:
            problems.append(f"{name}: getters have no get_ prefix (kindred_<object>_<noun>)")
        for m in re.finditer(r"\bint\s*(\*?)\s*(\w+)\s*[,)]", params):
            if m.group(2) in ENUM_PARAMETERS:
                problems.append(f"{name}: parameter '{m.group(2)}' is int{m.group(1) and ' *'}; it takes the enum type")
        if "kindred_status" in returns:
            ret = doc[doc.find("@return"):] if "@return" in doc else ""
            if not ret:
                problems.append(f"{name}: returns kindred_status but documents no @return")
            elif re.search(r"\bcapacity\b", params) and "KINDRED_E_BUFFER_TOO_SMALL" not in ret \
                    and not re.match(r"@return\s+as\s+kindred_", ret):
                problems.append(f"{name}: fills a caller buffer but its @return does not name KINDRED_E_BUFFER_TOO_SMALL")
        if experimental_at >= 0 and offset > experimental_at and "Experimental" not in doc:
            problems.append(f"{name}: in the experimental section but its documentation does not say 'Experimental'")
    return problems


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
    problems += rule_problems(header_text, declared)
    for name in sorted(exported):
        if not name.startswith("kindred_"):
            problems.append(f"{name}: exported, but every exported name starts with kindred_")
    if len(declared) < 10:
        problems.append(f"only {len(declared)} KINDRED_API functions found in the header: the parser is broken")

    for p in problems:
        print("FAIL", p)
    print(f"{len(exported)} exported, {len(declared)} declared, {len(listed)} in the version script, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
