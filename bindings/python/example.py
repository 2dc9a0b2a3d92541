import numpy as np, kindred                               # README example
X = np.loadtxt("data/iris.csv", delimiter=",", skiprows=1, usecols=range(4))   # C or Fortran order: no copy
y = np.repeat([0, 1, 2], 50)                              # iris classes, to sample constraints from
pairs = kindred.sample_pairs(y, count=100, seed=1)        # rows (i, j, +1 must-link / -1 cannot-link)
print(kindred.algorithms())                               # every algorithm of the installed library
model = kindred.RDPMeans(k=3, seed=1).fit(X, pairs=pairs, progress=True)   # options from the registry
print(model.labels_[:10], model.cluster_centers_.shape, model.n_iter_)
print(model.predict(X[:5]), kindred.metric("ari", y, model.labels_))
model.save("/tmp/iris-rdpmeans.kdm"); print(kindred.load("/tmp/iris-rdpmeans.kdm"))
print(kindred.options("rdpmeans")[0], kindred.Clusterer("kmeans", k=3).fit(X).arrays_.keys())
