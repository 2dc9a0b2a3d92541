"""Parse the function declarations of include/kindred.h (standard library only).

The bindings' signature checks (bindings/python/tools/gen_cdef.py,
bindings/rust/check_sys.py, bindings/julia/check_ccalls.py) all read the
header through this module, so that they agree on what the header says.

The parser knows exactly the C subset kindred.h uses: comments, preprocessor
lines, `typedef enum {...} name;`, `enum name {...};`, `typedef struct x x;`,
`typedef struct x {...} x;` (plain members and function-pointer members),
function-pointer typedefs and function declarations marked KINDRED_API.
"""
import re
from dataclasses import dataclass, field
from typing import Dict, List, Tuple


@dataclass
class Param:
    ctype: str  # normalised C type, e.g. "const int64_t *", "kindred_model **"
    name: str


@dataclass
class Function:
    name: str
    ret: str
    params: List[Param] = field(default_factory=list)


@dataclass
class Member:
    name: str
    ctype: str = ""  # a plain member's type
    callback: "Function" = None  # a function-pointer member's signature


@dataclass
class Header:
    functions: Dict[str, Function]
    callbacks: Dict[str, Function]  # function-pointer typedefs, by typedef name
    enums: Dict[str, Dict[str, int]]  # enum name -> {constant: value}
    opaque: List[str]  # opaque struct typedef names
    version: Tuple[int, int, int]
    structs: Dict[str, List[Member]] = field(default_factory=dict)  # public structs, members in order


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def normalise_type(t: str) -> str:
    """'const  char*' -> 'const char *'; pointer stars separated and spaced."""
    t = re.sub(r"\s*\*\s*", " * ", t.strip())
    t = re.sub(r"\s+", " ", t).strip()
    t = t.replace("* *", "**").replace("** *", "***")
    return t


def _split_params(text: str) -> List[str]:
    text = text.strip()
    if text in ("", "void"):
        return []
    return [p.strip() for p in text.split(",")]


def _param(decl: str) -> Param:
    m = re.match(r"^(.*?)([A-Za-z_][A-Za-z0-9_]*)$", decl.strip())
    if not m or not m.group(1).strip():
        raise ValueError("cannot parse parameter %r" % decl)
    return Param(normalise_type(m.group(1)), m.group(2))


def parse(text: str) -> Header:
    version = tuple(int(re.search(r"#define KINDRED_VERSION_%s (\d+)" % part, text).group(1))
                    for part in ("MAJOR", "MINOR", "PATCH"))
    body = strip_comments(text)
    body = "\n".join(l for l in body.splitlines() if not l.lstrip().startswith("#"))
    body = body.replace('extern "C" {', " ")

    enums: Dict[str, Dict[str, int]] = {}
    for m in re.finditer(r"(?:typedef\s+)?enum\s+(\w+)\s*\{(.*?)\}\s*(\w*)\s*;", body, flags=re.S):
        values = {}
        for item in m.group(2).split(","):
            item = item.strip()
            if item:
                k, v = (s.strip() for s in item.split("="))
                values[k] = int(v, 0)
        enums[m.group(3) or m.group(1)] = values
    body = re.sub(r"(?:typedef\s+)?enum\s+\w+\s*\{.*?\}\s*\w*\s*;", " ", body, flags=re.S)

    structs: Dict[str, List[Member]] = {}
    for m in re.finditer(r"typedef\s+struct\s+(\w+)\s*\{(.*?)\}\s*(\w+)\s*;", body, flags=re.S):
        members = []
        for decl in (d.strip() for d in m.group(2).split(";")):
            if not decl:
                continue
            fp = re.match(r"^([\w\s\*]+?)\s*\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)$", decl, flags=re.S)
            if fp:
                members.append(Member(fp.group(2), callback=Function(fp.group(2), normalise_type(fp.group(1)),
                                                                     [_param(p) for p in _split_params(fp.group(3))])))
            else:
                p = _param(decl)
                members.append(Member(p.name, ctype=p.ctype))
        structs[m.group(3)] = members
    body = re.sub(r"typedef\s+struct\s+\w+\s*\{.*?\}\s*\w+\s*;", " ", body, flags=re.S)

    opaque = re.findall(r"typedef\s+struct\s+(\w+)\s+\w+\s*;", body)
    body = re.sub(r"typedef\s+struct\s+\w+\s+\w+\s*;", " ", body)

    callbacks: Dict[str, Function] = {}
    for m in re.finditer(r"typedef\s+([\w\s\*]+?)\s*\(\s*\*\s*(\w+)\s*\)\s*\((.*?)\)\s*;", body, flags=re.S):
        callbacks[m.group(2)] = Function(m.group(2), normalise_type(m.group(1)),
                                         [_param(p) for p in _split_params(m.group(3))])
    body = re.sub(r"typedef\s+[\w\s\*]+?\(\s*\*\s*\w+\s*\)\s*\(.*?\)\s*;", " ", body, flags=re.S)

    functions: Dict[str, Function] = {}
    for m in re.finditer(r"KINDRED_API\s+([\w\s\*]+?)\s*\b(kindred_\w+)\s*\((.*?)\)\s*;", body, flags=re.S):
        functions[m.group(2)] = Function(m.group(2), normalise_type(m.group(1)),
                                         [_param(p) for p in _split_params(m.group(3))])
    # Anything else that looks like a declaration would be silently missed: refuse instead.
    leftover = re.sub(r"KINDRED_API\s+[\w\s\*]+?\s*\bkindred_\w+\s*\(.*?\)\s*;", " ", body, flags=re.S)
    leftover = re.sub(r"[\s{}]+", " ", leftover).strip()
    if leftover:
        raise ValueError("kindred.h: unparsed text: %r" % leftover[:200])
    return Header(functions, callbacks, enums, opaque, version, structs)


def parse_file(path: str) -> Header:
    with open(path, encoding="utf-8") as f:
        return parse(f.read())


def exported_symbols(library: str) -> List[str]:
    """Dynamic symbols defined by a shared library (nm -D), or [] if nm is missing."""
    import shutil
    import subprocess
    if not shutil.which("nm"):
        return []
    out = subprocess.run(["nm", "-D", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    names = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] in "TtWwiI":
            names.append(parts[2].split("@")[0])
    return names


if __name__ == "__main__":
    import sys
    h = parse_file(sys.argv[1])
    for f in h.functions.values():
        print(f.ret, f.name, "(" + ", ".join(p.ctype + " " + p.name for p in f.params) + ")")
