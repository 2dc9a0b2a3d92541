import os

import numpy as np
import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DATA = os.environ.get("KINDRED_TEST_DATA", os.path.join(REPO, "data"))


def load_csv(name):
    """(X, y) from a bundled CSV whose 'label' column is the class."""
    path = os.path.join(DATA, name)
    with open(path) as f:
        header = f.readline().strip().split(",")
    label_col = header.index("label")
    cols = [k for k in range(len(header)) if k != label_col]
    X = np.loadtxt(path, delimiter=",", skiprows=1, usecols=cols)
    raw = np.loadtxt(path, delimiter=",", skiprows=1, usecols=[label_col], dtype=str)
    _, y = np.unique(raw, return_inverse=True)
    return X, y.astype(np.int32)


@pytest.fixture(scope="session")
def iris():
    return load_csv("iris.csv")


@pytest.fixture(scope="session")
def iris_path():
    return os.path.join(DATA, "iris.csv")
