"""The cffi declarations must be exactly those of include/kindred.h (a drifted binding fails here)."""
import os
import subprocess
import sys

import pytest

from conftest import REPO

GEN = os.path.join(os.path.dirname(__file__), "..", "tools", "gen_cdef.py")
HEADER = os.environ.get("KINDRED_HEADER", os.path.join(REPO, "include", "kindred.h"))


def run_check(header):
    return subprocess.run([sys.executable, GEN, "--check", header], capture_output=True, text=True)


def test_cdef_matches_the_header():
    if not os.path.exists(HEADER):
        pytest.skip("no kindred.h at %s" % HEADER)
    r = run_check(HEADER)
    assert r.returncode == 0, r.stdout + r.stderr


def test_check_fails_on_a_mismatch(tmp_path):
    with open(os.path.join(REPO, "include", "kindred.h")) as f:
        text = f.read()
    wrong = text.replace("kindred_model_set_int(kindred_model *model, const char *name,\n"
                         "                                                 int64_t value)",
                         "kindred_model_set_int(kindred_model *model, const char *name,\n"
                         "                                                 int32_t value)")
    assert wrong != text
    path = tmp_path / "kindred.h"
    path.write_text(wrong)
    r = run_check(str(path))
    assert r.returncode == 1 and "int32_t value" in r.stdout


def test_the_loaded_library_has_every_declared_function():
    import kindred
    from kindred._cdef import CDEF
    import re
    names = re.findall(r"\b(kindred_\w+)\(", CDEF)
    missing = [n for n in names if not kindred.has_function(n)]
    assert not missing, "declared in kindred.h but not exported by %s: %s" % (kindred.library_path, missing)
