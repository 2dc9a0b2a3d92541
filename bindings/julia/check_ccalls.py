#!/usr/bin/env python3
"""Check every ccall of the Julia package against include/kindred.h (standard library only).

    check_ccalls.py [--header kindred.h] [--lib libkindred.so.0] [FILES or folders ...]

No Julia runtime is needed. For each `ccall((:name, libkindred), Ret, (T1, ...), a1, ...)` in the
package's source, the checker requires that
  - `name` is a function of the header (and, with --lib, a symbol exported by the built library);
  - the tuple has the header's number of parameters, and as many arguments follow it;
  - each Julia type is compatible with the C type (Int64 for int64_t, Ptr{Float64} or Ref{Float64}
    for double *, Cstring for const char *, Ptr{Cvoid} for handles and callbacks, ...);
  - the return type matches.
Each `@cfunction(f, Ret, (T1, ...))` must match one of the header's callback typedefs. A ccall in a
form the checker cannot read, or `@ccall`, is an error too. Exit status 1 on any problem.
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import header_parser  # noqa: E402

SCALARS = {
    "int64_t": {"Int64"},
    "int32_t": {"Int32"},
    "int": {"Cint", "Int32"},
    "uint64_t": {"UInt64", "Culonglong"},
    "double": {"Cdouble", "Float64"},
    "float": {"Cfloat", "Float32"},
    "size_t": {"Csize_t", "UInt64", "UInt"},
    "char": {"UInt8", "Cchar", "Int8"},
    "void": {"Cvoid", "Nothing"},
}
VOID_PTR = {"Ptr{Cvoid}", "Ptr{Nothing}"}


def allowed(ctype, header):
    """The Julia spellings accepted for a C type (spaces removed)."""
    t = ctype.replace(" ", "")
    stars = t.count("*")
    base = t.rstrip("*")
    const = base.startswith("const")
    if const:
        base = base[len("const"):]
    if base in header.enums:
        values = {"Cint", "Int32"}
    elif base in header.callbacks:
        values = set(VOID_PTR)  # a function pointer is passed as Ptr{Cvoid} (@cfunction)
    elif base in SCALARS:
        values = set(SCALARS[base])
    elif base in header.opaque:
        values = set()  # only pointers to it exist
    else:
        raise ValueError("no Julia type for C type %r" % ctype)
    if stars == 0:
        return values
    if base in header.opaque or base == "void":
        current = set(VOID_PTR)
    else:
        current = {"Ptr{%s}" % v for v in values} | {"Ref{%s}" % v for v in values}
        if base == "char" and const:
            current.add("Cstring")  # a NUL-terminated input string
    for _ in range(stars - 1):
        inner = {x for x in current if not x.startswith("Ref") and x != "Cstring"} | ({"Cstring"} if "Cstring" in current else set())
        current = {"Ptr{%s}" % x for x in inner} | {"Ref{%s}" % x for x in inner}
    return current


def blank_strings_and_comments(src):
    """Replace string literals and comments with spaces (positions kept), so that 'ccall' in a
    docstring or a comment is not taken for code."""
    out = list(src)
    i, n = 0, len(src)

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        if src.startswith("#=", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("#=", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("=#", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif src[i] == "#":
            j = src.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif src.startswith('"""', i):
            j = src.find('"""', i + 3)
            j = n if j < 0 else j + 3
            blank(i + 3, j - 3)
            i = j
        elif src[i] == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            blank(i + 1, j)
            i = j + 1
        elif src[i] == "'" and i + 2 < n and (src[i + 2] == "'" or src[i + 1] == "\\"):
            j = src.find("'", i + 2 if src[i + 1] == "\\" else i + 1)
            j = i + 2 if j < 0 else j
            blank(i, j + 1)
            i = j + 1
        else:
            i += 1
    return "".join(out)


def balanced(text, start):
    """Index just past the bracket that closes the one at text[start]."""
    depth = 0
    for k in range(start, len(text)):
        if text[k] in "([{":
            depth += 1
        elif text[k] in ")]}":
            depth -= 1
            if depth == 0:
                return k + 1
    raise ValueError("unbalanced brackets")


def split_top(text):
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def tuple_items(text):
    text = text.strip()
    if not (text.startswith("(") and text.endswith(")")):
        return None
    return [re.sub(r"\s+", "", t) for t in split_top(text[1:-1])]


def find_calls(code, word):
    for m in re.finditer(r"(?<![\w.])%s\s*\(" % re.escape(word), code):
        open_at = code.index("(", m.start())
        yield m.start(), code[open_at + 1:balanced(code, open_at) - 1]


def line_of(src, pos):
    return src.count("\n", 0, pos) + 1


def check_source(path, src, header, exported):
    problems, used = [], []
    code = blank_strings_and_comments(src)
    for m in re.finditer(r"@ccall\b", code):
        problems.append("%s:%d: @ccall is not checked; use ccall((:name, libkindred), Ret, (Types...), args...)"
                        % (path, line_of(src, m.start())))
    for pos, body in find_calls(code, "ccall"):
        where = "%s:%d" % (path, line_of(src, pos))
        args = split_top(body)
        if len(args) < 3:
            problems.append("%s: ccall with fewer than 3 arguments" % where)
            continue
        target = re.fullmatch(r"\(\s*:(\w+)\s*,\s*libkindred\s*\)", args[0].strip())
        if not target:
            problems.append("%s: ccall target %r is not (:name, libkindred)" % (where, args[0]))
            continue
        name = target.group(1)
        used.append(name)
        types = tuple_items(args[2])
        if types is None:
            problems.append("%s: %s: argument types %r are not a literal tuple" % (where, name, args[2]))
            continue
        ret = re.sub(r"\s+", "", args[1])
        values = args[3:]
        if name not in header.functions:
            problems.append("%s: %s is not a function of kindred.h" % (where, name))
            continue
        if exported is not None and name not in exported:
            problems.append("%s: %s is not exported by the library" % (where, name))
        f = header.functions[name]
        if len(types) != len(f.params):
            problems.append("%s: %s takes %d arguments in kindred.h, the ccall declares %d"
                            % (where, name, len(f.params), len(types)))
        if len(values) != len(types):
            problems.append("%s: %s: %d argument types but %d arguments" % (where, name, len(types), len(values)))
        for k, (jt, p) in enumerate(zip(types, f.params)):
            ok = allowed(p.ctype, header)
            if jt not in ok:
                problems.append("%s: %s: argument %d (%s) is %s, but the C type %s needs one of %s"
                                % (where, name, k + 1, p.name, jt, p.ctype, sorted(ok)))
        ok_ret = allowed(f.ret, header)
        if ret not in ok_ret:
            problems.append("%s: %s returns %s in kindred.h, the ccall says %s" % (where, name, f.ret, ret))
    for pos, body in find_calls(code, "@cfunction"):
        where = "%s:%d" % (path, line_of(src, pos))
        args = split_top(body)
        types = tuple_items(args[2]) if len(args) == 3 else None
        if types is None:
            problems.append("%s: @cfunction not in the form @cfunction(f, Ret, (Types...))" % where)
            continue
        ret = re.sub(r"\s+", "", args[1])
        matches = [cb.name for cb in header.callbacks.values()
                   if len(cb.params) == len(types) and ret in allowed(cb.ret, header)
                   and all(t in allowed(p.ctype, header) for t, p in zip(types, cb.params))]
        if not matches:
            problems.append("%s: @cfunction(%s, %s, (%s)) matches no callback typedef of kindred.h"
                            % (where, args[0], ret, ", ".join(types)))
    return problems, used


def julia_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, _, files in os.walk(p):
                for f in sorted(files):
                    if f.endswith(".jl"):
                        yield os.path.join(root, f)
        else:
            yield p


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--header", default=os.path.join(HERE, "..", "..", "include", "kindred.h"))
    ap.add_argument("--lib", help="built libkindred.so to check the exported symbols of")
    ap.add_argument("paths", nargs="*", default=[os.path.join(HERE, "src")])
    a = ap.parse_args(argv)
    header = header_parser.parse_file(a.header)
    exported = None
    if a.lib:
        syms = header_parser.exported_symbols(a.lib)
        exported = set(syms) if syms else None
    problems, used, count = [], set(), 0
    for path in julia_files(a.paths):
        with open(path, encoding="utf-8") as f:
            p, u = check_source(path, f.read(), header, exported)
        problems += p
        used |= set(u)
        count += len(u)
    if count == 0:
        problems.append("no ccall found in %s" % ", ".join(a.paths))
    if problems:
        print("FAIL: the Julia ccalls do not match %s:" % a.header)
        for p in problems:
            print("  " + p)
        return 1
    unwrapped = sorted(set(header.functions) - used)
    print("ok: %d ccalls to %d functions match %s%s" % (count, len(used), a.header,
                                                        " and the exports of " + a.lib if exported else ""))
    if unwrapped:
        print("note: not called from Julia: " + ", ".join(unwrapped))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
