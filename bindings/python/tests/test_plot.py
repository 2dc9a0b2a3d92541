"""The pictures of the Python binding (issue 25): plot_clusters and plot_curve through matplotlib,
rendered with the Agg backend to an image whose colours are counted, and the message when
matplotlib is missing. tools/quickstart.sh installs python3-matplotlib, so these tests run in CI."""
import os
import subprocess
import sys

import numpy as np

import kindred

import matplotlib  # noqa: E402  (installed by tools/quickstart.sh: a missing one fails, never skips)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def colours_in(fig):
    """The palette colours present in the rendered figure, in palette order."""
    fig.canvas.draw()
    pixels = np.asarray(fig.canvas.buffer_rgba())[:, :, :3].reshape(-1, 3)
    found = {tuple(p) for p in np.unique(pixels, axis=0)}
    rgb = [tuple(int(c[k:k + 2], 16) for k in (1, 3, 5)) for c in kindred._plot.PALETTE]
    return [kindred._plot.PALETTE[k] for k, c in enumerate(rgb) if c in found]


def test_plot_clusters_draws_each_cluster_and_the_broken_pairs(iris):
    X, y = iris
    model = kindred.Clusterer("kmeans", k=3, seed=1).fit(X)
    pairs = kindred.sample_pairs(y, count=60, seed=3)
    broken = kindred.broken_pairs(model.labels_, pairs)
    assert len(broken) > 0
    ax = kindred.plot_clusters(X, model.labels_, pairs=pairs, title="iris")
    assert len(ax.lines) == len(broken)
    assert sum(len(c.get_offsets()) for c in ax.collections) == len(X)
    assert colours_in(ax.figure) == kindred._plot.PALETTE[:3]
    plt.close(ax.figure)
    ax = kindred.plot_clusters(X, model.labels_, columns=(2, 3))
    assert ax.get_xlabel() == "column 2"
    plt.close(ax.figure)


def test_principal_components_match_the_command_line_sign_rule(iris):
    X, _ = iris
    pc = kindred.principal_components(X)
    assert pc.shape == (len(X), 2)
    assert abs(np.corrcoef(pc[:, 0], pc[:, 1])[0, 1]) < 1e-8
    assert pc[:, 0].var() > pc[:, 1].var()


def test_learning_curve_and_its_picture(iris):
    X, y = iris
    curve = kindred.learning_curve(X, y, ["pckmeans", "kmeans"], counts=[0, 30, 90], repeats=2)
    assert curve["counts"] == [0, 30, 90]
    for series in curve["algorithms"].values():
        for measure in ("nmi", "ari", "f_measure"):
            assert len(series[measure]["mean"]) == 3
            assert all(0 <= v <= 1 for v in series[measure]["mean"] if measure != "ari")
    axes = kindred.plot_curve(curve)
    assert len(axes) == 3
    assert colours_in(axes[0].figure) == kindred._plot.PALETTE[:2]
    plt.close(axes[0].figure)


def test_without_matplotlib_the_error_says_what_to_install():
    code = ("import sys; sys.modules['matplotlib'] = None; sys.modules['matplotlib.pyplot'] = None\n"
            "import kindred\n"
            "try:\n    kindred.plot_clusters([[0.0, 1.0], [1.0, 0.0]], [0, 1])\n"
            "except ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ, check=True).stdout
    assert "python3-matplotlib" in out
