#!/usr/bin/env python3
"""Turn a text file into a C++ source defining one string constant.

Used at build time to bundle the demo's data set into the `kindred` program,
so that `kindred demo` works after `meson install` without any data file.
Usage: embed_text.py INPUT OUTPUT SYMBOL   (standard library only)
"""
import os
import sys


def c_string_lines(text):
    """One C string literal per input line, escaped, newline kept."""
    out = []
    for line in text.splitlines(keepends=True):
        escaped = []
        for ch in line:
            code = ord(ch)
            if ch == "\\":
                escaped.append("\\\\")
            elif ch == '"':
                escaped.append('\\"')
            elif ch == "\n":
                escaped.append("\\n")
            elif ch == "\r":
                escaped.append("\\r")
            elif ch == "\t":
                escaped.append("\\t")
            elif code < 0x20 or code == 0x7F:
                escaped.append("\\%03o" % code)
            elif code > 0x7F:
                # UTF-8 bytes in octal so that the literal is plain ASCII.
                escaped.extend("\\%03o" % b for b in ch.encode("utf-8"))
            else:
                escaped.append(ch)
        out.append('    "' + "".join(escaped) + '"')
    return out


def main(argv):
    if len(argv) != 4:
        sys.stderr.write("usage: embed_text.py INPUT OUTPUT SYMBOL\n")
        return 2
    source, target, symbol = argv[1:]
    with open(source, encoding="utf-8") as f:
        text = f.read()
    if not text:
        sys.stderr.write("embed_text.py: %s is empty\n" % source)
        return 1
    lines = [
        "// Generated at build time by tools/kindred/embed_text.py from %s; do not edit."
        % os.path.basename(source),
        '#include "bundled_data.hpp"',
        "",
        "namespace kindred_cli {",
        "",
        "const char *const %s =" % symbol,
    ]
    lines += c_string_lines(text)
    lines[-1] += ";"
    lines += ["", "}  // namespace kindred_cli", ""]
    with open(target, "w", encoding="ascii") as f:
        f.write("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
