#!/usr/bin/env python3
"""Compare the Debian packages a Quick start mode installs with what meson requires in that mode.

    python3 tools/check_quickstart_packages.py BUILD_DIR demo|test

BUILD_DIR is a build directory configured by `bash tools/quickstart.sh MODE`. For every dependency
meson found there (`meson introspect --dependencies`), the package that owns its pkg-config file
must be among the packages the mode installs or what they depend on. For the demo mode this is the
proof that it needs no test-only package; for the test mode it also checks that each test-only
package is really absent from the demo's list and its dependencies (so the split means something).
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout


def mode_packages(mode):
    return run("bash", os.path.join(HERE, "quickstart.sh"), mode, "--print-packages").split()


def closure(packages):
    """The packages and everything they depend on (Depends / Pre-Depends, recursively)."""
    out = run("apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests", "--no-conflicts",
              "--no-breaks", "--no-replaces", "--no-enhances", *packages)
    return {line.strip().split(":")[0] for line in out.splitlines() if line and not line[0].isspace()}


def owner(path):
    out = run("dpkg-query", "-S", os.path.realpath(path))
    return out.split(":")[0].strip()


def meson_dependencies(build):
    """{dependency name: owning package} for what meson found; threads belong to libc."""
    deps = json.loads(run("meson", "introspect", build, "--dependencies"))
    result = {}
    for d in deps:
        name = d["name"]
        if name == "threads":
            continue
        pcdir = subprocess.run(["pkg-config", "--variable=pcfiledir", name], capture_output=True, text=True).stdout.strip()
        pc = os.path.join(pcdir, name + ".pc")
        if not pcdir or not os.path.exists(pc):
            sys.exit("check_quickstart_packages: meson found %s without pkg-config; add its package to this check" % name)
        result[name] = owner(pc)
    return result


def main(argv):
    if len(argv) != 3 or argv[2] not in ("demo", "test"):
        print(__doc__, file=sys.stderr)
        return 2
    build, mode = argv[1], argv[2]
    options = {o["name"]: o["value"] for o in json.loads(run("meson", "introspect", build, "--buildoptions"))}
    want = "disabled" if mode == "demo" else "enabled"
    if mode == "test" and options["tests"] != want or mode == "demo" and options["tests"] == "enabled":
        print("FAIL: %s is configured with tests=%s, not as the %s mode configures it" % (build, options["tests"], mode))
        return 1
    listed = mode_packages(mode)
    reach = closure(listed)
    deps = meson_dependencies(build)
    problems = ["%s (meson dependency %s) is not installed by the %s mode" % (pkg, dep, mode)
                for dep, pkg in sorted(deps.items()) if pkg not in reach]
    if mode == "test":
        demo = mode_packages("demo")
        demo_reach = closure(demo)
        test_only = [p for p in listed if p not in demo]
        problems += ["%s is test-only but the demo mode installs it (directly or as a dependency)" % p
                     for p in test_only if p in demo_reach]
        if "cmocka" not in deps:
            problems.append("the test build does not use cmocka: is the `tests` option honoured?")
        elif deps["cmocka"] in demo_reach:
            problems.append("cmocka's package %s comes with the demo's packages" % deps["cmocka"])
        # The MPI tests (tests/mpi, issue 27) are part of the test mode, never silently left out.
        # (meson names the dependency after the pkg-config file it used: ompi-c for Open MPI.)
        mpi = next((name for name in ("ompi-c", "mpi-c", "ompi", "mpi", "mpich") if name in deps), None)
        if mpi is None:
            problems.append("the test build does not use MPI: tests/mpi would be left out")
        elif deps[mpi] in demo_reach:
            problems.append("MPI's package %s comes with the demo's packages" % deps[mpi])
    for dep, pkg in sorted(deps.items()):
        print("  %-10s %-28s %s" % (dep, pkg, "ok" if pkg in reach else "MISSING"))
    if problems:
        print("FAIL:\n  " + "\n  ".join(problems))
        return 1
    print("ok: the %s mode installs every package meson requires in it (%d dependencies, %d packages listed)"
          % (mode, len(deps), len(listed)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
