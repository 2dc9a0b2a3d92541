#!/usr/bin/env python3
"""Runs the kindred program's cases with expected output (tests/cli/cases, format in tests/README.md).

    run_cases.py KINDRED DATA CASES_DIR [NAME ...]            run the cases (all, or the NAMEs)
    run_cases.py --accept KINDRED DATA CASES_DIR NAME ...     write the NAMEs' .exp files from a run

A case NAME.sh is a short sh script run in an empty scratch folder, with the directory of KINDRED
first on PATH and KINDRED_DATA set to DATA. Its stdout, stderr and exit code are compared with
NAME.sh.stdout.exp, NAME.sh.stderr.exp and NAME.sh.exit.exp; a missing .exp file is not checked.
Exit status 0 when every case matches, 1 otherwise (each mismatch printed as a diff).
Standard-library python only.
"""
import difflib
import os
import shutil
import subprocess
import sys
import tempfile

# Ours to compare: the three streams a case is judged by, by file suffix.
STREAMS = ("stdout", "stderr", "exit")


def run(script, kindred, data):
    """Runs one case; returns its {stream: text}. The scratch folder keeps relative paths (and so
    the messages that name them) the same on every machine."""
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(kindred) + os.pathsep + env.get("PATH", "")
    env["KINDRED_DATA"] = data
    env["LC_ALL"] = "C"  # messages and number formats do not follow the runner's locale
    scratch = tempfile.mkdtemp(prefix="kindred-case-")
    try:
        p = subprocess.run(["sh", script], cwd=scratch, env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {"stdout": p.stdout, "stderr": p.stderr, "exit": "%d\n" % p.returncode}


def compare(name, script, got):
    """Prints a diff per stream that differs from its .exp file; True when none does."""
    same = True
    for stream in STREAMS:
        exp_path = script + "." + stream + ".exp"
        if not os.path.exists(exp_path):
            continue
        with open(exp_path) as f:
            want = f.read()
        if got[stream] != want:
            same = False
            sys.stdout.writelines(difflib.unified_diff(
                want.splitlines(True), got[stream].splitlines(True),
                fromfile=os.path.basename(exp_path), tofile="%s (%s of this run)" % (name, stream)))
            if not got[stream].endswith("\n"):
                sys.stdout.write("\n")
    return same


def main(argv):
    accept = "--accept" in argv
    args = [a for a in argv if a != "--accept"]
    if len(args) < 3 or accept and len(args) < 4:
        sys.stderr.write(__doc__)
        return 2
    kindred, data, cases = (os.path.abspath(a) for a in args[:3])
    names = args[3:] or sorted(f[:-3] for f in os.listdir(cases) if f.endswith(".sh"))
    failed = []
    for name in names:
        script = os.path.join(cases, name + ".sh")
        if not os.path.exists(script):
            print("%s: no such case (%s)" % (name, script))
            failed.append(name)
            continue
        got = run(script, kindred, data)
        if accept:
            for stream in STREAMS:
                with open(script + "." + stream + ".exp", "w") as f:
                    f.write(got[stream])
            print("%s: expected output written (review it before committing)" % name)
        elif compare(name, script, got):
            print("%s: ok" % name)
        else:
            print("%s: FAILED" % name)
            failed.append(name)
    if failed:
        print("failed: " + " ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
