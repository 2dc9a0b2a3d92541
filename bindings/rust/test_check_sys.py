"""Tests of check_sys.py itself: it passes kindred-sys and FAILS when the header and the Rust
declarations disagree. Run: python3 bindings/rust/test_check_sys.py (standard library only)."""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_sys  # noqa: E402

HEADER = os.environ.get("KINDRED_HEADER", os.path.join(HERE, "..", "..", "include", "kindred.h"))


def run(header_text=None, rust_text=None):
    with tempfile.TemporaryDirectory() as tmp:
        h = HEADER
        if header_text is not None:
            h = os.path.join(tmp, "kindred.h")
            with open(h, "w") as f:
                f.write(header_text)
        r = check_sys.SYS
        if rust_text is not None:
            r = os.path.join(tmp, "lib.rs")
            with open(r, "w") as f:
                f.write(rust_text)
        return check_sys.main([h, r])


class CheckSysTest(unittest.TestCase):
    def setUp(self):
        with open(HEADER) as f:
            self.header = f.read()
        with open(check_sys.SYS) as f:
            self.rust = f.read()

    def test_kindred_sys_matches(self):
        self.assertEqual(run(), 0)

    def test_changed_rust_declarations_fail(self):
        cases = {
            "argument type": ("pub fn kindred_model_set_int(model: *mut kindred_model, name: *const c_char, value: i64)",
                              "pub fn kindred_model_set_int(model: *mut kindred_model, name: *const c_char, value: i32)"),
            "constness": ("pub fn kindred_model_labels(model: *const kindred_model, labels: *mut i32",
                          "pub fn kindred_model_labels(model: *const kindred_model, labels: *const i32"),
            "missing argument": ("pub fn kindred_model_save(model: *const kindred_model, path: *const c_char)",
                                 "pub fn kindred_model_save(model: *const kindred_model)"),
            "return type": ("pub fn kindred_algorithm_count() -> i64;", "pub fn kindred_algorithm_count() -> i32;"),
            "constant": ("pub const KINDRED_COL_MAJOR: kindred_layout = 102;", "pub const KINDRED_COL_MAJOR: kindred_layout = 103;"),
            "callback": ("iteration: i64, objective: f64", "iteration: i32, objective: f64"),
        }
        for what, (old, new) in cases.items():
            with self.subTest(what=what):
                self.assertIn(old, self.rust)
                self.assertEqual(run(rust_text=self.rust.replace(old, new)), 1, what)

    def test_changed_header_fails(self):
        old = "KINDRED_API kindred_status kindred_model_save(const kindred_model *model, const char *path);"
        self.assertIn(old, self.header)
        added = old + "\nKINDRED_API int kindred_new_function(int64_t x);"
        self.assertEqual(run(header_text=self.header.replace(old, added)), 1)
        changed = old.replace("const char *path", "const char *path, int flags")
        self.assertEqual(run(header_text=self.header.replace(old, changed)), 1)


if __name__ == "__main__":
    unittest.main()
