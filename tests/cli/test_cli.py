#!/usr/bin/env python3
"""End-to-end tests of the `kindred` program (tools/kindred), standard library only.

Run by meson as: python3 test_cli.py PATH/TO/kindred PATH/TO/data
Every command's happy path on data/iris.csv, the JSON keys scripts rely on,
fit -> save -> predict, determinism across thread counts, and each bad-file /
bad-option error path (non-zero exit code, a message naming the problem).
"""
import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

KINDRED = None
DATA = None

# scikit-learn 1.2.1 on the same files (KMeans(n_clusters=3), n_init=10, and
# GaussianMixture(3, covariance_type='spherical'), seeds 0..4, mean NMI);
# issue 2 asks kindred to be within 0.05 of them.
SKLEARN_NMI = {
    ("kmeans", "iris"): 0.7582,
    ("kmeans", "wine"): 0.4288,
    ("gmm", "iris"): 0.7362,
    ("gmm", "wine"): 0.4352,
}


def run(*args, code=0, stdin=None):
    """Runs kindred; checks the exit code; returns (stdout, stderr)."""
    p = subprocess.run([KINDRED] + [str(a) for a in args], capture_output=True, text=True, timeout=120, input=stdin)
    if p.returncode != code:
        raise AssertionError("kindred %s: exit %d, expected %d\nstdout: %s\nstderr: %s"
                             % (" ".join(map(str, args)), p.returncode, code, p.stdout, p.stderr))
    return p.stdout, p.stderr


def iris():
    return os.path.join(DATA, "iris.csv")


def read_column(path, name):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return [r[name] for r in rows]


def iris_labels():
    return read_column(iris(), "label")


def algorithms_using(flag_word):
    """Algorithms whose `uses:` line in `kindred algorithms` mentions flag_word."""
    out, _ = run("algorithms")
    names, current = [], None
    for line in out.splitlines():
        if line and not line.startswith(" "):
            current = line.strip()
        elif line.strip().startswith("uses:") and flag_word in line and current:
            names.append(current)
    return names


class Tmp(unittest.TestCase):
    def setUp(self):
        self._dir = tempfile.TemporaryDirectory()
        self.tmp = self._dir.name

    def tearDown(self):
        self._dir.cleanup()

    def path(self, name, content=None):
        p = os.path.join(self.tmp, name)
        if content is not None:
            with open(p, "w") as f:
                f.write(content)
        return p


class InfoCommands(Tmp):
    def test_version(self):
        out, _ = run("--version")
        self.assertRegex(out.strip(), r"^kindred \d+\.\d+\.\d+$")
        _, err = run("--version", "--data", "x.csv", code=2)  # used to print the version and exit 0
        self.assertIn("takes no arguments", err)

    def test_general_help_lists_commands_formats_and_exit_codes(self):
        out, _ = run("help")
        for word in ["algorithms", "fit", "predict", "eval", "sample", "demo", "exit codes", "cluster", "i,j,value"]:
            self.assertIn(word, out)
        self.assertEqual(run("--help")[0], out)

    def test_help_algorithm_is_generated_from_the_registry(self):
        out, _ = run("help", "kmeans")
        self.assertIn("--k", out)
        self.assertIn("--seed", out)
        self.assertIn("--threads", out)
        self.assertIn("number of classes", out)  # eval sets k: documented

    def test_help_command_and_dash_dash_help(self):
        out, _ = run("help", "eval")
        self.assertIn("--reveal-classes", out)
        out2, _ = run("eval", "--help")
        self.assertEqual(out, out2)

    def test_algorithms_lists_the_first_three(self):
        out, _ = run("algorithms")
        for name in ["kmeans", "dpmeans", "gmm"]:
            self.assertIn(name + "\n", out)
        self.assertIn("options:", out)


class FitPredict(Tmp):
    def test_fit_json_keys(self):
        out, err = run("fit", "kmeans", "--data", iris(), "--k", "3", "--json")
        j = json.loads(out)
        for key in ["algorithm", "clusters", "iterations", "converged", "objective", "seconds"]:
            self.assertIn(key, j)
        self.assertEqual(j["algorithm"], "kmeans")
        self.assertEqual(j["clusters"], 3)
        self.assertIs(j["converged"], True)
        self.assertEqual(j["n"], 150)
        self.assertEqual(j["d"], 4)  # the label column is not a feature
        self.assertEqual(err, "")  # no progress line: stderr is not a terminal

    def test_fit_out_save_predict_reproduces_labels(self):
        labels, model, predicted = self.path("labels.csv"), self.path("m.kdm"), self.path("pred.csv")
        run("fit", "kmeans", "--data", iris(), "--k", "3", "--out", labels, "--model", model)
        fitted = read_column(labels, "cluster")
        self.assertEqual(len(fitted), 150)
        self.assertEqual(set(fitted), {"0", "1", "2"})
        run("predict", "--model", model, "--data", iris(), "--out", predicted)
        self.assertEqual(read_column(predicted, "cluster"), fitted)
        out, _ = run("predict", "--model", model, "--data", iris())  # standard output
        self.assertEqual(out.split(), ["cluster"] + fitted)

    def test_same_seed_same_labels_for_one_and_two_threads(self):
        for algorithm, extra in [("kmeans", ["--k", "3"]), ("gmm", ["--k", "3"]), ("dpmeans", ["--k", "3"])]:
            results = []
            for threads in ["1", "2"]:
                out = self.path("%s_%s.csv" % (algorithm, threads))
                run("fit", algorithm, "--data", iris(), "--seed", "7", "--threads", threads, "--out", out, *extra)
                results.append(read_column(out, "cluster"))
            self.assertEqual(results[0], results[1], algorithm)

    def test_option_spelled_with_dash_and_equals(self):
        out, _ = run("fit", "kmeans", "--data", iris(), "--k=3", "--max-iter", "2", "--json")
        self.assertLessEqual(json.loads(out)["iterations"], 2)

    def test_label_column_by_name_and_word_labels(self):
        p = self.path("named.csv", "x,species,y\n0,a,0\n0.1,a,0\n5,b,5\n5.1,b,5\n")
        out, _ = run("fit", "kmeans", "--data", p, "--label-column", "species", "--k", "2", "--json")
        self.assertEqual(json.loads(out)["d"], 2)
        out, _ = run("eval", "kmeans", "--data", p, "--label-column", "species", "--json")
        j = json.loads(out)
        self.assertEqual(j["classes"], 2)
        self.assertAlmostEqual(j["nmi"]["mean"], 1.0)

    def test_byte_order_mark_crlf_and_quotes(self):
        p = self.path("excel.csv")
        with open(p, "w", newline="") as f:
            f.write("\ufefflabel,\"x\",y\r\n\"a\",0,0\r\na,0.1,0\r\nb,5,5\r\nb,5.1,5\r\n")
        out, _ = run("eval", "kmeans", "--data", p, "--json")
        j = json.loads(out)
        self.assertEqual((j["n"], j["d"], j["classes"]), (4, 2, 2))

    def test_fit_with_side_files(self):
        pairs = self.path("pairs.csv", "i,j,value\n0,1,1\n0,100,-1\n")
        triplets = self.path("triplets.csv", "a,b,c,answer\n0,1,100,yes\n50,51,0,1\n100,101,0,dnk\n")
        partial = self.path("partial.csv", "label\n" + "0\n" * 10 + "-1\n" * 130 + "\n" * 10)
        for name in algorithms_using("pairs")[:3]:
            run("fit", name, "--data", iris(), "--k", "3", "--pairs", pairs)
        for name in algorithms_using("triplets")[:2]:
            run("fit", name, "--data", iris(), "--k", "3", "--triplets", triplets)
        _, err = run("fit", "kmeans", "--data", iris(), "--k", "3", "--pairs", pairs, "--triplets", triplets,
                     "--partial-labels", partial)
        self.assertIn("does not use pairs", err)

    def test_values_chosen_from_the_pairs_are_reported(self):
        # rdpmeans with neither lambda nor k chooses lambda, then xi_max, by cross-validation over
        # the pairs; fit reports them in JSON (inf as null) and on its summary line. A fit that
        # chose nothing reports {}.
        pairs = self.path("pairs_chosen.csv", "i,j,value\n" + "".join(
            "%d,%d,%d\n" % (i, i + 1, 1 if i // 50 == (i + 1) // 50 else -1) for i in range(0, 148, 3)) +
            "".join("%d,%d,-1\n" % (i, i + 50) for i in range(0, 100, 7)))
        out, _ = run("fit", "rdpmeans", "--data", iris(), "--pairs", pairs, "--seed", "1", "--json")
        chosen = json.loads(out)["chosen"]
        self.assertEqual(list(chosen), ["lambda", "xi_max"])
        self.assertGreater(chosen["lambda"], 0)
        self.assertTrue(chosen["xi_max"] is None or chosen["xi_max"] > 0)
        out, err = run("fit", "rdpmeans", "--data", iris(), "--pairs", pairs, "--seed", "1")
        self.assertIn("; chosen from the side information: lambda ", out)
        self.assertNotIn("held-out pair agreement", err)
        _, err = run("fit", "rdpmeans", "--data", iris(), "--pairs", pairs, "--seed", "1", "--verbose")
        self.assertIn("kindred: info: rdpmeans: held-out pair agreement over 3 folds: lambda ", err)
        out, _ = run("fit", "rdpmeans", "--data", iris(), "--pairs", pairs, "--lambda", "2", "--json")
        self.assertEqual(json.loads(out)["chosen"], {})
        out, _ = run("eval", "pckmeans", "--data", iris(), "--pairs-count", "40", "--repeats", "2", "--json")
        chosen = json.loads(out)["chosen"]
        self.assertEqual(len(chosen["weight"]["values"]), 2)
        self.assertIn(chosen["propagation"]["values"][0], (0, 1))
        out, _ = run("eval", "pckmeans", "--data", iris(), "--pairs-count", "40", "--penalty", "1",
                     "--propagation", "off", "--json")
        self.assertEqual(json.loads(out)["chosen"], {})

    def test_library_warnings_reach_stderr_once(self):
        # tvclust warns (through the log callback) when p <= 1 - q: the links carry no signal.
        pairs = self.path("pairs_warn.csv", "i,j,value\n0,1,1\n0,100,-1\n")
        _, err = run("fit", "tvclust", "--data", iris(), "--pairs", pairs, "--p", "0.3", "--q", "0.3",
                     "--iterations", "5", "--burn_in", "0")
        self.assertEqual(err.count("warning: tvclust: p ="), 1, err)
        _, err = run("fit", "tvclust", "--data", iris(), "--pairs", pairs, "--iterations", "5", "--burn_in", "0")
        self.assertNotIn("warning", err)

    def test_sparse_matrix_market(self):
        mtx = self.path("counts.mtx", "%%MatrixMarket matrix coordinate integer general\n% docs x terms\n6 4 8\n"
                        "1 1 3\n2 1 4\n3 1 5\n1 2 1\n4 3 3\n5 3 4\n6 4 5\n6 3 1\n")
        labels = self.path("labels.txt", "a\na\na\nb\nb\nb\n")
        out, _ = run("fit", "kmeans", "--data", mtx, "--k", "2", "--json")
        self.assertEqual(json.loads(out)["d"], 4)
        out, _ = run("eval", "kmeans", "--data", mtx, "--labels", labels, "--json")
        self.assertEqual(json.loads(out)["n"], 6)


class Eval(Tmp):
    def eval_json(self, *args):
        out, _ = run("eval", *args, "--json")
        return json.loads(out)

    def test_eval_json_keys(self):
        j = self.eval_json("kmeans", "--data", iris(), "--repeats", "3")
        for key in ["algorithm", "data", "n", "repeats", "nmi", "ari", "f_measure", "seconds", "clusters"]:
            self.assertIn(key, j)
        for key in ["nmi", "ari", "f_measure", "seconds", "clusters"]:
            self.assertIn("mean", j[key])
            self.assertIn("std", j[key])
        self.assertEqual(j["n"], 150)
        self.assertEqual(j["repeats"], 3)
        self.assertEqual(j["k"], 3)  # set from the classes
        self.assertTrue(j["k_from_classes"])

    def test_nmi_close_to_scikit_learn(self):
        for (algorithm, data), reference in SKLEARN_NMI.items():
            j = self.eval_json(algorithm, "--data", os.path.join(DATA, data + ".csv"), "--repeats", "5")
            self.assertLess(abs(j["nmi"]["mean"] - reference), 0.05, "%s on %s: %.4f vs scikit-learn %.4f"
                            % (algorithm, data, j["nmi"]["mean"], reference))

    def test_table_output(self):
        out, _ = run("eval", "kmeans", "--data", iris(), "--repeats", "2")
        for word in ["NMI", "ARI", "F-measure", "seconds", "clusters", "mean", "std"]:
            self.assertIn(word, out)

    def test_user_k_is_kept(self):
        j = self.eval_json("kmeans", "--data", iris(), "--k", "5")
        self.assertEqual(j["k"], 5)
        self.assertFalse(j["k_from_classes"])
        self.assertEqual(j["clusters"]["mean"], 5)

    def test_sampled_pairs_are_counted_and_seeds_repeat(self):
        names = algorithms_using("pairs") or ["kmeans"]
        a = self.eval_json(names[0], "--data", iris(), "--pairs-count", "40", "--noise", "0.1", "--repeats", "2", "--seed", "3")
        self.assertEqual(a["pairs"]["mean"], 40)
        self.assertEqual(a["seed"], 3)
        b = self.eval_json(names[0], "--data", iris(), "--pairs-count", "40", "--noise", "0.1", "--repeats", "2", "--seed", "3")
        self.assertEqual(a["nmi"]["values"], b["nmi"]["values"])
        r = self.eval_json("kmeans", "--data", iris(), "--pairs-rate", "0.01")
        self.assertEqual(r["pairs"]["mean"], round(0.01 * 150 * 149 / 2))
        t = self.eval_json("kmeans", "--data", iris(), "--triplets-count", "30")
        self.assertEqual(t["triplets"]["mean"], 30)

    def test_reveal_classes_scores_only_unlabelled_points(self):
        j = self.eval_json("gmm", "--data", iris(), "--reveal-classes", "1", "--repeats", "2")
        self.assertEqual(j["scored"], 100)
        self.assertEqual(j["k"], 2)
        self.assertEqual(j["clusters"]["mean"], 2)
        for name in algorithms_using("partial labels")[:1]:
            j = self.eval_json(name, "--data", os.path.join(DATA, "wine.csv"), "--reveal-classes", "2")
            self.assertEqual(j["labelled"]["mean"], 178 - j["scored"])


class SampleAndDemo(Tmp):
    def test_sample_pairs_agree_with_labels(self):
        out = self.path("pairs.csv")
        run("sample", "--data", iris(), "--pairs-count", "60", "--seed", "5", "--out", out)
        labels = iris_labels()
        with open(out) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 60)
        for r in rows:
            same = labels[int(r["i"])] == labels[int(r["j"])]
            self.assertEqual(float(r["value"]), 1.0 if same else -1.0)
        again, _ = run("sample", "--data", iris(), "--pairs-count", "60", "--seed", "5")
        with open(out) as f:
            self.assertEqual(f.read(), again)

    def test_sample_triplets(self):
        out, _ = run("sample", "--data", iris(), "--triplets-count", "20", "--seed", "1")
        lines = out.split()
        self.assertEqual(lines[0], "a,b,c,answer")
        self.assertEqual(len(lines), 21)

    def test_demo(self):
        out, err = run("demo", "--repeats", "2")
        self.assertIn("kmeans", out)
        self.assertIn("NMI", out)
        self.assertIn("iris", out)
        self.assertNotIn("failed", out)
        self.assertEqual(err, "")


class BadInput(Tmp):
    def fails(self, code, *args, contains=()):
        _, err = run(*args, code=code)
        self.assertTrue(err.startswith("kindred: "), err)
        self.assertEqual(err.count("\n"), 1, "one line: " + err)
        for piece in contains:
            self.assertIn(piece, err)
        return err

    def test_bad_data_files(self):
        cases = [
            ("ragged.csv", "a,b,label\n1,2,x\n3,4\n", ["ragged.csv:3", "2 cells", "3 columns"]),
            ("nonnumeric.csv", "a,b,label\n1,2,x\n3,zz,y\n", ["nonnumeric.csv:3:2", "'zz'"]),
            ("nan.csv", "a,b\n1,nan\n", ["nan.csv:2:2"]),
            ("emptycell.csv", "a,b\n1,\n", ["emptycell.csv:2:2", "empty"]),
            ("empty.csv", "", ["empty.csv", "empty file"]),
            ("header_only.csv", "a,b\n", ["header_only.csv", "no data rows"]),
            ("quote.csv", 'a,b\n"1,2\n', ["quote.csv:2", "quote"]),
            ("hex.csv", "a,b\n1,0x10\n", ["hex.csv:2:2", "'0x10'"]),
        ]
        for name, content, pieces in cases:
            self.fails(1, "fit", "kmeans", "--data", self.path(name, content), "--k", "1", contains=pieces)
        self.fails(1, "fit", "kmeans", "--data", self.path("missing.csv"), contains=["missing.csv"])

    def test_missing_label_column(self):
        p = self.path("nolabel.csv", "a,b\n1,2\n3,4\n")
        self.fails(1, "eval", "kmeans", "--data", p, contains=["nolabel.csv", "label"])
        self.fails(1, "sample", "--data", p, "--pairs-count", "1", contains=["label"])
        self.fails(1, "fit", "kmeans", "--data", p, "--label-column", "cls", contains=["'cls'"])

    def test_bad_matrix_market(self):
        self.fails(1, "fit", "kmeans", "--data", self.path("t.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n"),
                   contains=["t.mtx", "truncated"])
        self.fails(1, "fit", "kmeans", "--data", self.path("r.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n4 1 1\n"),
                   contains=["r.mtx:3", "row 4"])
        self.fails(1, "fit", "kmeans", "--data", self.path("n.mtx", "hello\n"), contains=["n.mtx:1"])
        mtx = self.path("ok.mtx", "%%MatrixMarket matrix coordinate real general\n3 2 2\n1 1 1\n3 2 1\n")
        self.fails(1, "eval", "kmeans", "--data", mtx, "--labels", self.path("few.txt", "a\nb\n"), contains=["few.txt", "2 labels"])
        self.fails(2, "eval", "kmeans", "--data", mtx, contains=["--labels"])

    def test_bad_side_files(self):
        data = self.path("d.csv", "a,b\n0,0\n0,1\n5,5\n5,6\n")
        cases = [
            ("--pairs", "p1.csv", "i,j,value\n0,1,1\n0,9,-1\n", ["p1.csv:3:2", "out of range"]),
            ("--pairs", "p2.csv", "0,1,1\n2,2,1\n", ["p2.csv:2", "different"]),
            ("--pairs", "p3.csv", "0,1,x\n", ["p3.csv:1:3"]),
            ("--pairs", "p4.csv", "0,1\n", ["p4.csv:1", "2 cells"]),
            ("--pairs", "p5.csv", "", ["p5.csv", "empty"]),
            ("--triplets", "t1.csv", "a,b,c,answer\n0,1,2,maybe\n", ["t1.csv:2:4", "maybe"]),
            ("--triplets", "t2.csv", "0,1,1,yes\n", ["t2.csv:1", "three different"]),
            ("--partial-labels", "l1.csv", "label\n0\n1\n", ["l1.csv", "2 labels", "4 points"]),
            ("--partial-labels", "l2.csv", "label\n0\n-2\n0\n0\n", ["l2.csv:3:1"]),
            ("--partial-labels", "l3.csv", "cls\n0\n0\n0\n0\n", ["l3.csv:1", "label"]),
        ]
        for flag, name, content, pieces in cases:
            self.fails(1, "fit", "kmeans", "--data", data, "--k", "2", flag, self.path(name, content), contains=pieces)

    def test_bad_model_file(self):
        self.fails(1, "predict", "--model", self.path("bad.kdm", "garbage\n"), "--data", iris(), contains=["bad.kdm"])
        model = self.path("m.kdm")
        run("fit", "kmeans", "--data", iris(), "--k", "3", "--model", model)
        with open(model, "rb") as f:
            content = f.read()
        self.path("cut.kdm")
        with open(self.path("cut.kdm"), "wb") as f:
            f.write(content[: len(content) // 2])
        self.fails(1, "predict", "--model", self.path("cut.kdm"), "--data", iris(), contains=["cut.kdm"])
        self.fails(1, "predict", "--model", model, "--data", self.path("d3.csv", "a,b,c\n1,2,3\n"), contains=["d3.csv"])

    def test_bad_options_are_usage_errors(self):
        self.fails(2, "fit", "nosuch", "--data", iris(), contains=["nosuch", "kmeans"])
        self.fails(2, "fit", "kmeans", "--data", iris(), "--bogus", "1", contains=["bogus", "valid options"])
        self.fails(2, "fit", "kmeans", "--data", iris(), "--k", "0", contains=["'k'", "[1,"])
        self.fails(2, "fit", "kmeans", "--data", iris(), "--k", "abc", contains=["abc"])
        self.fails(2, "fit", "kmeans", "--data", iris(), "--k", "3", "--k", "4", contains=["twice"])
        self.fails(2, "fit", "kmeans", "--data", contains=["needs a value"])
        self.fails(2, "fit", "kmeans", contains=["--data"])
        self.fails(2, "fit", contains=["algorithm"])
        self.fails(2, "frobnicate", contains=["frobnicate"])
        self.fails(2, contains=["no command"])
        self.fails(2, "help", "nosuch", contains=["nosuch"])
        self.fails(2, "eval", "kmeans", "--data", iris(), "--pairs-rate", "2", contains=["--pairs-rate"])
        self.fails(2, "eval", "kmeans", "--data", iris(), "--pairs-rate", "0.1", "--pairs-count", "3", contains=["not both"])
        self.fails(2, "eval", "kmeans", "--data", iris(), "--reveal-classes", "3", contains=["classes"])
        self.fails(2, "eval", "kmeans", "--data", iris(), "--repeats", "0", contains=["--repeats"])
        self.fails(2, "sample", "--data", iris(), contains=["--pairs-count"])
        self.fails(2, "sample", "--data", iris(), "--pairs-count", "3", "--k", "2", contains=["--k"])
        self.fails(2, "algorithms", "--full", "1", contains=["full"])

    def test_library_refusals_show_its_message(self):
        tiny = self.path("tiny.csv", "a,b\n1,2\n3,4\n")
        err = self.fails(1, "fit", "kmeans", "--data", tiny, "--k", "5")
        self.assertIn("k = 5", err)
        self.fails(1, "sample", "--data", iris(), "--pairs-count", "100000", contains=["sampling pairs"])

    # Found by the robustness audit (each used to crash, hang, or exit 0 with a wrong result).
    def test_byte_order_mark_on_a_headerless_pairs_file_keeps_the_first_pair(self):
        data = self.path("d.csv", "a,b\n0,0\n0,1\n5,5\n5,6\n")
        # Without the fix the first row (a cannot-link) was taken for a header and dropped.
        with open(self.path("bom_pairs.csv"), "wb") as f:
            f.write(b"\xef\xbb\xbf0,1,-1\n2,3,1\n")
        model = self.path("m.kdm")
        run("fit", "copkmeans", "--data", data, "--k", "2", "--pairs", self.path("bom_pairs.csv"), "--out", self.path("l.csv"))
        labels = read_column(self.path("l.csv"), "cluster")
        self.assertNotEqual(labels[0], labels[1])  # the cannot-link holds
        self.assertEqual(labels[2], labels[3])
        with open(self.path("bom_labels.csv"), "wb") as f:
            f.write(b"\xef\xbb\xbflabel\n0\n\n1\n\n")
        run("fit", "tcs-gm", "--data", data, "--k", "1", "--partial-labels", self.path("bom_labels.csv"), "--model", model)

    def test_nul_bytes_and_directories_are_named(self):
        with open(self.path("nul.csv"), "wb") as f:
            f.write(b"a,b\n1,2\x00junk\n3,4\n")  # "2\0junk" used to be read as 2
        self.fails(1, "fit", "kmeans", "--data", self.path("nul.csv"), "--k", "1", contains=["nul.csv", "NUL byte at byte offset 7"])
        os.mkdir(self.path("adir"))
        self.fails(1, "fit", "kmeans", "--data", self.path("adir"), "--k", "1", contains=["adir", "is a directory"])
        self.fails(1, "fit", "kmeans", "--data", iris(), "--k", "1", "--pairs", self.path("adir"), contains=["is a directory"])
        self.fails(1, "predict", "--model", self.path("adir"), "--data", iris(), contains=["cannot read", "input/output error"])

    def test_data_at_a_scale_that_overflows_is_refused(self):
        # k-means returned objective 0 and a wrong clustering (exit 0) for blobs at 1e154.
        rows = "".join("%g,%g\n" % ((i % 2) * 1e155 + i * 1e152, i * 1e152) for i in range(8))
        self.fails(1, "fit", "kmeans", "--data", self.path("big.csv", "a,b\n" + rows), "--k", "2",
                   contains=["big.csv", "row 1, column 0", "overflow"])
        self.fails(1, "fit", "kmeans", "--data", self.path("tiny.csv", "a,b\n1e-200,0\n2e-200,0\n"), "--k", "1",
                   contains=["underflow"])

    def test_impossible_sizes_fail_at_once(self):
        mtx = self.path("rows.mtx", "%%MatrixMarket matrix coordinate real general\n4611686018427387904 2 0\n")
        self.fails(1, "fit", "kmeans", "--data", mtx, "--k", "1", contains=["rows.mtx:2", "do not fit in memory"])
        # Used to draw triplets until memory ran out.
        self.fails(1, "sample", "--data", iris(), "--triplets-count", "9223372036854775807", contains=["out of memory"])

    def test_pair_weights_summing_to_infinity(self):
        data = self.path("d.csv", "a,b\n0,0\n0,1\n5,5\n5,6\n")
        pairs = self.path("p.csv", "i,j,value\n0,1,1e308\n1,0,1e308\n")
        self.fails(1, "fit", "copkmeans", "--data", data, "--k", "2", "--pairs", pairs, contains=["p.csv", "infinite weight"])

    def test_hexadecimal_numbers_are_refused(self):
        self.fails(2, "fit", "dpmeans", "--data", iris(), "--lambda", "0x10", contains=["0x10"])
        self.fails(2, "eval", "kmeans", "--data", iris(), "--pairs-rate", "0x0.1p0", contains=["--pairs-rate"])
        pairs = self.path("hexpairs.csv", "i,j,value\n0,1,0x1\n")
        self.fails(1, "fit", "pckmeans", "--data", iris(), "--k", "3", "--pairs", pairs, contains=["hexpairs.csv"])

    def test_infinite_option_values(self):
        self.fails(2, "fit", "dpmeans", "--data", iris(), "--lambda", "inf", contains=["--lambda", "got inf"])
        self.fails(2, "fit", "tcs-gm", "--data", iris(), "--gamma", "inf", contains=["--gamma", "got inf"])


def main():
    global KINDRED, DATA
    if len(sys.argv) < 3:
        sys.stderr.write("usage: test_cli.py PATH/TO/kindred DATA_DIR\n")
        return 2
    KINDRED, DATA = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    program = unittest.main(argv=[sys.argv[0], "-v"] + sys.argv[3:], exit=False)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
