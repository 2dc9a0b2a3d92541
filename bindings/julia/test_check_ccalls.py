"""Tests of check_ccalls.py itself: it must pass the package and FAIL on deliberately wrong ccalls.

Run: python3 bindings/julia/test_check_ccalls.py   (standard library only)
"""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_ccalls  # noqa: E402

HEADER = os.environ.get("KINDRED_HEADER", os.path.join(HERE, "..", "..", "include", "kindred.h"))

GOOD = '''
"""docstring mentioning ccall((:nonexistent, libkindred), Cint, ()) must be ignored"""
# a comment with ccall((:kindred_nope, libkindred), Cint, ()) too
f(m, n) = ccall((:kindred_model_set_int, libkindred), Cint, (Ptr{Cvoid}, Cstring, Int64), m, "k, with comma", n)
g() = ccall((:kindred_version, libkindred), Ptr{UInt8}, ())
h(out) = ccall((:kindred_model_new, libkindred), Cint, (Ref{Ptr{Cvoid}}, Cstring), out, "kmeans")
cb = @cfunction(tramp, Cint, (Ptr{Cvoid}, Int64, Cdouble, Ptr{UInt8}))
p(m, x) = ccall((:kindred_model_predict_dense_f32, libkindred), Cint, (Ptr{Cvoid}, Ptr{Float32}, Int64, Int64, Cint, Int64, Ptr{Int32}, Int64), m, x, 2, 1, 101, 1, out, 2)
'''

WRONG = {
    "argument count": 'ccall((:kindred_model_set_int, libkindred), Cint, (Ptr{Cvoid}, Cstring), m, "k")',
    "argument type": 'ccall((:kindred_model_set_int, libkindred), Cint, (Ptr{Cvoid}, Cstring, Int32), m, "k", n)',
    "float32 points as Float64": 'ccall((:kindred_model_fit_dense_f32, libkindred), Cint, (Ptr{Cvoid}, Ptr{Float64}, Int64, Int64, Cint, Int64, Ptr{Cvoid}), m, x, n, d, l, ld, s)',
    "float64 points as Float32": 'ccall((:kindred_model_fit_dense, libkindred), Cint, (Ptr{Cvoid}, Ptr{Float32}, Int64, Int64, Cint, Int64, Ptr{Cvoid}), m, x, n, d, l, ld, s)',
    "pointer element type": 'ccall((:kindred_model_labels, libkindred), Cint, (Ptr{Cvoid}, Ptr{Int64}, Int64), m, out, n)',
    "return type": 'ccall((:kindred_model_free, libkindred), Cint, (Ptr{Cvoid},), m)',
    "unknown function": 'ccall((:kindred_model_fit, libkindred), Cint, (Ptr{Cvoid},), m)',
    "values vs types": 'ccall((:kindred_model_free, libkindred), Cvoid, (Ptr{Cvoid},), m, extra)',
    "mutable buffer as Cstring": 'ccall((:kindred_model_option, libkindred), Cint, (Ptr{Cvoid}, Cstring, Cstring, Csize_t), m, n, b, c)',
    "other library": 'ccall((:kindred_version, "libother"), Ptr{UInt8}, ())',
    "@ccall": '@ccall libkindred.kindred_version()::Ptr{UInt8}',
    "callback": 'cb = @cfunction(tramp, Cint, (Ptr{Cvoid}, Int32, Cdouble, Ptr{UInt8}))',
}


def run(source):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "snippet.jl")
        with open(path, "w") as f:
            f.write(source)
        return check_ccalls.main(["--header", HEADER, path])


class CheckerTest(unittest.TestCase):
    def test_the_package_passes(self):
        self.assertEqual(check_ccalls.main(["--header", HEADER, os.path.join(HERE, "src")]), 0)

    def test_a_correct_snippet_passes(self):
        self.assertEqual(run(GOOD), 0)

    def test_wrong_snippets_fail(self):
        for what, snippet in WRONG.items():
            with self.subTest(what=what):
                self.assertEqual(run(GOOD + "\n" + snippet + "\n"), 1, what)

    def test_a_changed_header_fails(self):
        with open(HEADER) as f:
            text = f.read()
        wrong = text.replace("KINDRED_API kindred_status kindred_model_save(const kindred_model *model, const char *path);",
                             "KINDRED_API kindred_status kindred_model_save(const kindred_model *model, const char *path, int flags);")
        self.assertNotEqual(wrong, text)
        with tempfile.TemporaryDirectory() as tmp:
            h = os.path.join(tmp, "kindred.h")
            with open(h, "w") as f:
                f.write(wrong)
            self.assertEqual(check_ccalls.main(["--header", h, os.path.join(HERE, "src")]), 1)


if __name__ == "__main__":
    unittest.main()
