#!/usr/bin/env python3
"""The pictures of the `kindred` program (issue 25): `kindred plot` (clusters on
two axes, broken pairs as lines) and `kindred eval ... --curve ... --plot`
(quality against the number of constraints). Each SVG is parsed as XML, then
rendered to PNG by rsvg-convert (Debian librsvg2-bin) and the image is checked:
not blank, and the palette colours it shows are exactly one per cluster (or
per algorithm).

Run by meson as: /usr/bin/python3 test_cli_plots.py PATH/TO/kindred PATH/TO/data
Needs rsvg-convert and Pillow (python3-pil); tools/quickstart.sh installs both.
"""
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_cli  # noqa: E402
from test_cli import iris, run  # noqa: E402

from PIL import Image  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
# The palette of tools/kindred/svg_document.cpp, in order.
PALETTE = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#882255", "#44aa99", "#999933"]


def rgb(hex_colour):
    return tuple(int(hex_colour[k:k + 2], 16) for k in (1, 3, 5))


class Tmp(test_cli.Tmp):
    fails = test_cli.BadInput.fails

    def render(self, svg_path):
        """Parses the SVG, renders it to PNG; returns (xml root, {palette colour: pixel count}, share of non-white pixels)."""
        root = ET.parse(svg_path).getroot()
        self.assertEqual(root.tag, SVG + "svg")
        png = svg_path + ".png"
        subprocess.run(["rsvg-convert", "-o", png, svg_path], check=True, timeout=60)
        image = Image.open(png).convert("RGB")
        counts = {colour: n for n, colour in image.getcolors(maxcolors=1 << 24)}
        width, height = image.size
        white = counts.get((255, 255, 255), 0)
        found = {c: counts.get(rgb(c), 0) for c in PALETTE}
        return root, found, 1 - white / float(width * height)


class Plot(Tmp):
    def model_and_pairs(self, k=3):
        model = self.path("m.kdm")
        run("fit", "kmeans", "--data", iris(), "--k", str(k), "--seed", "1", "--model", model)
        pairs = self.path("pairs.csv")
        run("sample", "--data", iris(), "--pairs-count", "60", "--seed", "3", "--out", pairs)
        return model, pairs

    def broken_pairs(self, model, pairs):
        out, _ = run("predict", "--model", model, "--data", iris())
        labels = out.splitlines()[1:]
        must = cannot = 0
        with open(pairs) as f:
            for line in f.read().splitlines()[1:]:
                i, j, v = line.split(",")
                same = labels[int(i)] == labels[int(j)]
                must += float(v) > 0 and not same
                cannot += float(v) < 0 and same
        return must, cannot

    def test_clusters_picture_renders_with_one_colour_per_cluster(self):
        for k in (2, 3, 5):
            model, pairs = self.model_and_pairs(k)
            svg = self.path("clusters%d.svg" % k)
            out, _ = run("plot", "--model", model, "--data", iris(), "--pairs", pairs, "--out", svg)
            root, found, ink = self.render(svg)
            self.assertGreater(ink, 0.01)
            shown = [c for c in PALETTE if found[c] > 0]
            self.assertEqual(shown, PALETTE[:k], found)
            # 150 points and one legend mark per cluster.
            self.assertEqual(len(root.findall(SVG + "circle")), 150 + k)
            must, cannot = self.broken_pairs(model, pairs)
            self.assertIn("%d must-links and %d cannot-links are broken" % (must, cannot), out)
            links = [e for e in root.findall(SVG + "line") if e.get("stroke") == "#222222"]
            self.assertEqual(len(links), must + cannot + 2)  # + the two legend samples
            self.assertGreater(must + cannot, 0)

    def test_two_chosen_columns_and_ids(self):
        model, _ = self.model_and_pairs()
        svg = self.path("cols.svg")
        run("plot", "--model", model, "--data", iris(), "--x", "petal_length", "--y", "petal_width", "--out", svg)
        root, found, _ = self.render(svg)
        self.assertEqual([c for c in PALETTE if found[c] > 0], PALETTE[:3])
        texts = [t.text for t in root.iter(SVG + "text")]
        self.assertIn("petal_length", texts)
        self.assertIn("petal_width", texts)
        # Data read with an ID column, pairs named by ID: the same picture.
        with open(iris()) as f:
            lines = f.read().splitlines()
        data = self.path("ids.csv", "\n".join(["flower," + lines[0]] + ["f%d,%s" % (k, l) for k, l in enumerate(lines[1:])]) + "\n")
        pairs = self.path("p.csv", "f0,f100,1\nf1,f2,-1\n")
        out, _ = run("plot", "--model", model, "--data", data, "--id-column", "flower", "--pairs", pairs, "--out", svg)
        self.assertIn("of 2 pairs", out)

    def test_bad_plot_requests(self):
        model, _ = self.model_and_pairs()
        self.fails(2, "plot", "--model", model, "--data", iris(), contains=["--out"])
        self.fails(2, "plot", "--model", model, "--data", iris(), "--x", "petal_length", "--out", self.path("a.svg"),
                   contains=["--y"])
        self.fails(2, "plot", "--model", model, "--data", iris(), "--x", "petal", "--y", "petal_width",
                   "--out", self.path("a.svg"), contains=["--x petal", "not a feature column"])
        self.fails(1, "plot", "--model", self.path("none.kdm"), "--data", iris(), "--out", self.path("a.svg"),
                   contains=["none.kdm"])
        self.fails(1, "plot", "--model", model, "--data", iris(), "--out", os.path.join(self.tmp, "no", "dir.svg"),
                   contains=["dir.svg"])
        mtx = self.path("ok.mtx", "%%MatrixMarket matrix coordinate real general\n3 4 2\n1 1 1\n3 2 1\n")
        self.fails(2, "plot", "--model", model, "--data", mtx, "--out", self.path("a.svg"), contains=["dense"])
        self.assertFalse(os.path.exists(self.path("a.svg")))


class Curve(Tmp):
    def test_curve_picture_has_one_colour_per_algorithm(self):
        svg = self.path("curve.svg")
        out, _ = run("eval", "pckmeans", "copkmeans", "--data", iris(), "--curve", "0,20,60", "--repeats", "2",
                     "--plot", svg, "--json")
        o = json.loads(out)
        self.assertEqual(o["curve"], [0, 20, 60])
        self.assertEqual(list(o["algorithms"]), ["pckmeans", "copkmeans"])
        for measure in ("nmi", "ari", "f_measure"):
            self.assertEqual(len(o["algorithms"]["pckmeans"][measure]["mean"]), 3)
            self.assertEqual(len(o["algorithms"]["copkmeans"][measure]["std"]), 3)
        # The curve's points are those of `kindred eval` at each count.
        one, _ = run("eval", "copkmeans", "--data", iris(), "--pairs-count", "20", "--repeats", "2", "--json")
        self.assertAlmostEqual(o["algorithms"]["copkmeans"]["nmi"]["mean"][1], json.loads(one)["nmi"]["mean"], places=12)
        root, found, ink = self.render(svg)
        self.assertGreater(ink, 0.01)
        self.assertEqual([c for c in PALETTE if found[c] > 0], PALETTE[:2])
        # Three panels, each a polyline per algorithm.
        self.assertEqual(len(root.findall(SVG + "polyline")), 6)
        table, _ = run("eval", "pckmeans", "--data", iris(), "--curve", "0,30")
        self.assertEqual(len([l for l in table.splitlines() if re.match(r"^\d+ +pckmeans", l)]), 2)

    def test_bad_curve_requests(self):
        self.fails(2, "eval", "kmeans", "--data", iris(), "--curve", "50,20", contains=["increase"])
        self.fails(2, "eval", "kmeans", "--data", iris(), "--curve", "a", contains=["--curve"])
        self.fails(2, "eval", "kmeans", "--data", iris(), "--curve", "1,2", "--pairs-count", "3", contains=["--pairs-count"])
        self.fails(2, "eval", "kmeans", "nosuch", "--data", iris(), "--curve", "1,2", contains=["nosuch"])


if __name__ == "__main__":
    sys.exit(test_cli.main())  # sets the program and data paths, runs this file's tests
