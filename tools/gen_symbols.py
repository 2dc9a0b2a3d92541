#!/usr/bin/env python3
"""Print the Debian symbols file of libkindred0 from the linker version script (src/kindred.map).

A symbol of node KINDRED_X.Y first appeared in release X.Y.0, which is the minimal version a
program using it needs; the node itself is listed too, as dpkg-gensymbols sees it.
With --check FILE: exit 1 (and show the difference) when FILE is not what would be printed.
"""
import difflib
import re
import sys


def symbols_file(map_text):
    lines = ["libkindred.so.0 libkindred0 #MINVER#", "* Build-Depends-Package: libkindred-dev"]
    for node, body in re.findall(r"(KINDRED_[0-9.]+)\s*\{(.*?)\}", map_text, flags=re.S):
        body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
        version = node[len("KINDRED_"):] + ".0"
        names = re.findall(r"^\s*(kindred_\w+)\s*;", body, flags=re.M)
        lines.append(" %s@%s %s" % (node, node, version))
        lines += [" %s@%s %s" % (name, node, version) for name in sorted(names)]
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) == 2:
        sys.stdout.write(symbols_file(open(argv[1]).read()))
        return 0
    if len(argv) == 4 and argv[2] == "--check":
        want, have = symbols_file(open(argv[1]).read()), open(argv[3]).read()
        if want == have:
            print("ok: %s follows %s" % (argv[3], argv[1]))
            return 0
        sys.stdout.writelines(difflib.unified_diff(have.splitlines(True), want.splitlines(True), argv[3], "expected"))
        print("%s is out of date: run bash tools/update_abi_baseline.sh" % argv[3])
        return 1
    print("usage: gen_symbols.py MAP [--check SYMBOLS_FILE]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
