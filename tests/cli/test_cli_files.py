#!/usr/bin/env python3
"""Data files as people have them, through the `kindred` program (issue 25):
files without a header row, tab- and semicolon-separated files, an ID column
carried into the labels files and used in pairs / triplets / partial labels,
--columns / --drop, --data - (standard input), strict and fast number parsing,
and `kindred algorithms --json`.

Run by meson as: python3 test_cli_files.py PATH/TO/kindred PATH/TO/data
It uses the helpers of test_cli.py (same directory).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_cli  # noqa: E402
from test_cli import iris, run  # noqa: E402


class Tmp(test_cli.Tmp):
    fails = test_cli.BadInput.fails


def iris_rows():
    with open(iris()) as f:
        lines = f.read().splitlines()
    return lines[0].split(","), [line.split(",") for line in lines[1:] if line]


def fit_json(*args, stdin=None):
    out, err = run("fit", *args, "--json", stdin=stdin)
    return json.loads(out), err


class Delimiters(Tmp):
    def write(self, name, sep, header=True, ids=False):
        names, rows = iris_rows()
        lines = []
        if header:
            lines.append(sep.join((["flower"] if ids else []) + names))
        for k, r in enumerate(rows):
            lines.append(sep.join((["f%03d" % k] if ids else []) + r))
        return self.path(name, "\n".join(lines) + "\n")

    def test_headerless_file_keeps_every_row(self):
        # Before: the first point was taken for the header; 149 of 150 points, exit 0.
        names, rows = iris_rows()
        p = self.path("nohead.csv", "\n".join(",".join(r[:4]) for r in rows) + "\n")
        o, err = fit_json("kmeans", "--data", p, "--k", "3")
        self.assertEqual(o["n"], 150)
        self.assertEqual(o["d"], 4)
        self.assertIn("no header row", err)
        self.assertIn("numbered 1..4", err)

    def test_headerless_file_with_label_column_by_number(self):
        p = self.write("nohead_labels.csv", ",", header=False)
        out, _ = run("eval", "kmeans", "--data", p, "--label-column", "5", "--json")
        o = json.loads(out)
        self.assertEqual((o["n"], o["d"], o["classes"]), (150, 4, 3))
        # The default name `label` cannot exist without a header: the message says how columns are named.
        _, err = run("eval", "kmeans", "--data", p, code=1)
        self.assertIn("numbered 1..5", err)

    def test_no_header_flag_reads_the_first_row_as_a_point(self):
        # The first row here would be taken for a header (a word above numbers in column 1).
        p = self.path("ids_nohead.csv", "alpha,1,2\n7,1,3\n8,5,5\n9,5,6\n")
        o, _ = fit_json("kmeans", "--data", p, "--k", "2", "--no-header", "--drop", "1")
        self.assertEqual((o["n"], o["d"]), (4, 2))
        o, _ = fit_json("kmeans", "--data", p, "--k", "2", "--drop", "alpha")
        self.assertEqual((o["n"], o["d"]), (3, 2))

    def test_tab_and_semicolon_files_are_detected(self):
        comma, _ = fit_json("kmeans", "--data", iris(), "--k", "3", "--seed", "4")
        for name, sep in [("iris.tsv", "\t"), ("iris_semicolon.csv", ";")]:
            o, _ = fit_json("kmeans", "--data", self.write(name, sep), "--k", "3", "--seed", "4")
            self.assertEqual((o["n"], o["d"]), (150, 4), name)
            self.assertAlmostEqual(o["objective"], comma["objective"], places=9)

    def test_semicolon_file_with_decimal_commas_is_named(self):
        p = self.path("decimal.csv", "a;b\n1,5;2,5\n1,7;2,1\n")
        err = self.fails(1, "fit", "kmeans", "--data", p, "--k", "1")
        self.assertIn("'1,5'", err)
        self.assertIn("column 'a'", err)

    def test_delimiter_flag(self):
        p = self.write("forced.txt", ";")
        o, _ = fit_json("kmeans", "--data", p, "--k", "3", "--delimiter", "semicolon")
        self.assertEqual(o["d"], 4)
        o, _ = fit_json("kmeans", "--data", self.write("t.tsv", "\t"), "--k", "3", "--delimiter", "tab")
        self.assertEqual(o["d"], 4)
        # Forcing the wrong delimiter: each line is one cell, and the message says what to check.
        err = self.fails(1, "fit", "kmeans", "--data", iris(), "--k", "3", "--delimiter", "tab")
        self.assertIn("--delimiter", err)
        self.fails(2, "fit", "kmeans", "--data", iris(), "--delimiter", "pipe", contains=["'pipe'", "--delimiter"])
        # A row written with another delimiter than the rest is named as such; a short row is not.
        mixed = self.path("mixed.tsv", "a\tb\n1\t2\n3\t4\n5,6\n")
        self.fails(1, "fit", "kmeans", "--data", mixed, "--k", "1", contains=["mixed.tsv:4", "split at each tab", "--delimiter"])
        short = self.path("short.csv", "a,b\n1,2\n3\n")
        err = self.fails(1, "fit", "kmeans", "--data", short, "--k", "1", contains=["short.csv:3", "1 cells"])
        self.assertNotIn("--delimiter", err)
        self.fails(2, "fit", "kmeans", "--data", iris(), "--no-header=1", contains=["no-header"])


class Columns(Tmp):
    def test_columns_and_drop_choose_the_features(self):
        o, _ = fit_json("kmeans", "--data", iris(), "--k", "3", "--columns", "petal_length,petal_width")
        self.assertEqual(o["d"], 2)
        o, _ = fit_json("kmeans", "--data", iris(), "--k", "3", "--drop", "sepal_width")
        self.assertEqual(o["d"], 3)

    def test_bad_column_flags(self):
        self.fails(2, "fit", "kmeans", "--data", iris(), "--columns", "petal_length,petals",
                       contains=["--columns petals", "no such column", "sepal_length"])
        self.fails(2, "fit", "kmeans", "--data", iris(), "--drop", "x", contains=["--drop x"])
        self.fails(2, "fit", "kmeans", "--data", iris(), "--drop", "a,,b", contains=["empty column name"])
        self.fails(2, "fit", "kmeans", "--data", iris(), "--columns", "sepal_length", "--drop", "label",
                       contains=["not both"])
        self.fails(1, "fit", "kmeans", "--data", iris(), "--columns", "label", contains=["no feature columns"])

    def test_text_column_is_named_with_the_flag_that_skips_it(self):
        p = self.path("names.csv", "name,x,y\nann,1,2\nbob,3,4\n")
        err = self.fails(1, "fit", "kmeans", "--data", p, "--k", "1")
        for piece in ["names.csv:2:1", "column 'name' is not numeric", "'ann'", "--drop name", "--id-column name"]:
            self.assertIn(piece, err)

    def test_csv_flags_are_refused_for_matrix_market(self):
        mtx = self.path("ok.mtx", "%%MatrixMarket matrix coordinate real general\n3 2 2\n1 1 1\n3 2 1\n")
        self.fails(2, "fit", "kmeans", "--data", mtx, "--id-column", "x", contains=["Matrix Market"])


class Ids(Tmp):
    def data(self):
        # Two well separated groups; IDs are words, and some look like row numbers of another point.
        rows = ["item,x,y", "ann,0,0", "bob,0,1", "3,1,0", "dan,10,10", "eve,10,11", "0,11,10"]
        return self.path("people.csv", "\n".join(rows) + "\n")

    def labels(self, path):
        with open(path) as f:
            lines = f.read().splitlines()
        return lines[0], dict(line.split(",") for line in lines[1:])

    def test_ids_are_written_into_the_labels_files(self):
        out = self.path("labels.csv")
        o, _ = fit_json("kmeans", "--data", self.data(), "--id-column", "item", "--k", "2", "--out", out,
                        "--model", self.path("m.kdm"))
        self.assertEqual(o["d"], 2)  # the ID column is no feature
        header, got = self.labels(out)
        self.assertEqual(header, "item,cluster")
        self.assertEqual(sorted(got), sorted(["ann", "bob", "3", "dan", "eve", "0"]))
        self.assertEqual(got["ann"], got["3"])
        self.assertNotEqual(got["ann"], got["dan"])
        pred = self.path("pred.csv")
        run("predict", "--model", self.path("m.kdm"), "--data", self.data(), "--id-column", "item", "--out", pred)
        self.assertEqual(self.labels(pred), (header, got))

    def test_pairs_and_triplets_by_id(self):
        # Must-link ann with dan (far apart) and cannot-link ann with bob: copkmeans must obey.
        pairs = self.path("pairs.csv", "i,j,value\nann,dan,1\nann,bob,-1\n")
        out = self.path("labels.csv")
        run("fit", "copkmeans", "--data", self.data(), "--id-column", "item", "--k", "2", "--pairs", pairs, "--out", out)
        _, got = self.labels(out)
        self.assertEqual(got["ann"], got["dan"])
        self.assertNotEqual(got["ann"], got["bob"])
        # "0" and "3" are IDs here, not row numbers: a pair of them is the pair (point 6, point 3).
        run("fit", "copkmeans", "--data", self.data(), "--id-column", "item", "--k", "2",
            "--pairs", self.path("p0.csv", "0,3,-1\n"), "--out", out)
        _, got = self.labels(out)
        self.assertNotEqual(got["0"], got["3"])
        triplets = self.path("t.tsv", "ann\tbob\tdan\tyes\n")  # tab-separated: detected as for data
        o, _ = fit_json("dcrc", "--data", self.data(), "--id-column", "item", "--k", "2", "--triplets", triplets)
        self.assertEqual(o["n"], 6)

    def test_partial_labels_by_id(self):
        # Only the labelled points are listed, by ID; label words are numbered by first appearance,
        # and tcs-gm keeps the known points in their classes (k counts the new clusters).
        out = self.path("labels.csv")
        for rows, ann, dan in [("ann,small\ndan,big\n", "0", "1"), ("dan,big\nann,small\n", "1", "0")]:
            known = self.path("known.csv", "item,label\n" + rows)
            run("fit", "tcs-gm", "--data", self.data(), "--id-column", "item", "--k", "1", "--partial-labels", known,
                "--out", out)
            _, got = self.labels(out)
            self.assertEqual((got["ann"], got["dan"]), (ann, dan))
            self.assertNotIn(got["bob"], (ann, dan))

    def test_unknown_and_bad_ids(self):
        d = self.data()
        self.fails(1, "fit", "copkmeans", "--data", d, "--id-column", "item", "--k", "2",
                       "--pairs", self.path("p.csv", "ann,bob,1\nann,zed,-1\n"),
                       contains=["p.csv:2:2", "unknown ID 'zed'", "column 'item'"])
        self.fails(1, "fit", "dcrc", "--data", d, "--id-column", "item", "--k", "2",
                       "--triplets", self.path("t.csv", "ann,bob,carl,yes\n"), contains=["t.csv:1:3", "'carl'"])
        self.fails(1, "fit", "tcs-gm", "--data", d, "--id-column", "item",
                       "--partial-labels", self.path("k.csv", "ann,a\nann,b\n"), contains=["k.csv:2", "twice"])
        self.fails(2, "fit", "kmeans", "--data", d, "--id-column", "name", contains=["--id-column name", "item"])
        self.fails(1, "fit", "kmeans", "--data", self.path("dup.csv", "id,x\na,1\nb,2\na,3\n"),
                       "--id-column", "id", contains=["dup.csv:4:1", "'a' appears twice"])
        self.fails(1, "fit", "kmeans", "--data", self.path("e.csv", "id,x\na,1\n,2\n"),
                       "--id-column", "id", contains=["e.csv:3:1", "empty ID"])
        self.fails(2, "eval", "kmeans", "--data", iris(), "--id-column", "label", contains=["label column"])

    def test_sampled_pairs_are_written_with_ids(self):
        p = self.path("iris_ids.csv")
        names, rows = iris_rows()
        with open(p, "w") as f:
            f.write("flower," + ",".join(names) + "\n")
            for k, r in enumerate(rows):
                f.write("f%03d,%s\n" % (k, ",".join(r)))
        out, _ = run("sample", "--data", p, "--id-column", "flower", "--pairs-count", "5", "--seed", "1")
        lines = out.splitlines()
        self.assertEqual(lines[0], "i,j,value")
        for line in lines[1:]:
            i, j, _ = line.split(",")
            self.assertTrue(i.startswith("f") and j.startswith("f"), line)
        out, _ = run("sample", "--data", p, "--id-column", "flower", "--triplets-count", "5", "--seed", "1")
        rows = [line.split(",") for line in out.splitlines()[1:]]
        self.assertEqual(len(rows), 5)
        self.assertTrue(all(c.startswith("f") for r in rows for c in r[:3]), rows)
        # The file reads back as side information by ID.
        t = self.path("t.csv", out)
        run("fit", "dcrc", "--data", p, "--id-column", "flower", "--k", "3", "--triplets", t)


class StandardInput(Tmp):
    def test_data_from_standard_input(self):
        with open(iris()) as f:
            text = f.read()
        o, _ = fit_json("kmeans", "--data", "-", "--k", "3", stdin=text)
        self.assertEqual((o["n"], o["d"], o["data"]), (150, 4, "standard input"))
        _, err = run("fit", "kmeans", "--data", "-", "--k", "3", stdin="", code=1)
        self.assertIn("standard input: empty file", err)


class Numbers(Tmp):
    def test_number_forms(self):
        good = ["+1.5", "-2", ".5", "5.", "1e3", "1E-3", "1e-400", "  7  "]
        for cell in good:
            p = self.path("g.csv", "a,b\n%s,0\n1,1\n" % cell)
            o, _ = fit_json("kmeans", "--data", p, "--k", "1")
            self.assertEqual(o["n"], 2, cell)
        for cell in ["1e400", "-1e400", "0x10", "1.5x", "inf", "nan", "+-1", "++1", "+", "1 2", "1.2.3"]:
            p = self.path("b.csv", "a,b\n1,1\n%s,0\n" % cell)
            self.fails(1, "fit", "kmeans", "--data", p, "--k", "1", contains=["b.csv:3:1"])

    def test_values_are_read_exactly(self):
        # Every digit of a 17-digit number is kept: fitting one cluster gives the exact mean.
        p = self.path("exact.csv", "a\n0.10000000000000001\n0.30000000000000004\n")
        m = self.path("m.kdm")
        run("fit", "kmeans", "--data", p, "--k", "1", "--model", m)
        out, _ = run("predict", "--model", m, "--data", p)
        self.assertEqual(out.splitlines()[1:], ["0", "0"])


class AlgorithmsJson(Tmp):
    def test_algorithms_json_matches_the_registry(self):
        out, _ = run("algorithms", "--json")
        o = json.loads(out)
        text, _ = run("algorithms")
        names = [line for line in text.splitlines() if line and not line.startswith(" ") and not line.startswith("`")]
        self.assertEqual(list(o["algorithms"]), names)
        kmeans = o["algorithms"]["kmeans"]
        self.assertIn("k", kmeans["options"])
        self.assertEqual(set(kmeans["options"]["k"]), {"type", "range", "doc", "default"})
        self.assertEqual(o["algorithms"]["copkmeans"]["side_information"], ["pairs"])
        help_text, _ = run("help", "kmeans")
        for name, option in kmeans["options"].items():
            self.assertIn("--" + name, help_text)
            if option["default"] is not None:
                self.assertIn(option["default"], help_text)
        self.fails(2, "algorithms", "--json", "--k", "3", contains=["--k"])


if __name__ == "__main__":
    sys.exit(test_cli.main())  # sets the program and data paths, runs this file's tests
