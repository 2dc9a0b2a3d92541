#!/usr/bin/env python3
"""Runs every ```sh and ```python block of the tutorial and of the algorithm pages, in order, so that
the documentation cannot go stale (issue 25).

Each page runs in an empty folder holding copies of data/*.csv; its blocks share that folder, so a
block may use the files an earlier one wrote. sh blocks run under `bash -eu -o pipefail` with the
`kindred` program first on PATH; python blocks under /usr/bin/python3 with the binding of
bindings/python and the library of the build. A block preceded by `<!-- stdin: WORD WORD ... -->`
gets those words, one a line, as its standard input (the answers of `kindred ask`); the others get
an empty input. A block that fails fails the test, with the page, the block's first line and its output.

Run by meson as: test_docs_examples.py KINDRED_EXE LIBKINDRED SOURCE_ROOT [PAGE ...]
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

BLOCK = re.compile(r"(?:<!-- stdin: (?P<stdin>[^>]*?) -->\n)?```(?P<lang>sh|python)\n(?P<code>.*?)```", re.S)


def blocks(page):
    with open(page) as f:
        text = f.read()
    for m in BLOCK.finditer(text):
        line = text.count("\n", 0, m.start("code")) + 1
        stdin = "".join(w + "\n" for w in m.group("stdin").split()) if m.group("stdin") else ""
        yield m.group("lang"), m.group("code"), stdin, line


def run_page(page, kindred, library, root):
    count = 0
    with tempfile.TemporaryDirectory() as work:
        for csv in glob.glob(os.path.join(root, "data", "*.csv")):
            shutil.copy(csv, work)
        env = dict(os.environ)
        env["PATH"] = os.path.dirname(kindred) + os.pathsep + env.get("PATH", "")
        env["PYTHONPATH"] = os.path.join(root, "bindings", "python")
        env["KINDRED_LIB"] = library
        env["KINDRED_INCLUDE"] = os.path.join(root, "include")
        env["MPLBACKEND"] = "Agg"
        for lang, code, stdin, line in blocks(page):
            command = ["bash", "-eu", "-o", "pipefail", "-c", code] if lang == "sh" else ["/usr/bin/python3", "-c", code]
            p = subprocess.run(command, cwd=work, env=env, input=stdin, capture_output=True, text=True, timeout=600)
            if p.returncode != 0:
                print("FAILED: %s:%d (%s block starting %r), exit %d\n--- stdout\n%s--- stderr\n%s"
                      % (page, line, lang, code.splitlines()[0], p.returncode, p.stdout, p.stderr))
                return False, count
            count += 1
    return True, count


def main():
    if len(sys.argv) < 4:
        sys.stderr.write("usage: test_docs_examples.py KINDRED_EXE LIBKINDRED SOURCE_ROOT [PAGE ...]\n")
        return 2
    kindred, library, root = (os.path.abspath(a) for a in sys.argv[1:4])
    pages = sys.argv[4:] or ([os.path.join(root, "docs", "tutorial.md")] +
                             sorted(glob.glob(os.path.join(root, "docs", "algorithms", "*.md"))))
    ok = True
    for page in pages:
        passed, count = run_page(page, kindred, library, root)
        print("%s: %d blocks %s" % (os.path.relpath(page, root), count, "ran" if passed else "ran before the failure"))
        if count == 0 and passed:
            print("FAILED: %s has no sh or python block" % page)
            passed = False
        ok = ok and passed
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
