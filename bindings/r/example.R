library(kindred)                                        # README example
x <- as.matrix(iris[, 1:4])                             # 150 points (rows), passed without a copy
pairs <- kindred_sample_pairs(iris$Species, count = 100, seed = 1)   # i, j, value (1-based)
print(kindred_algorithms())                             # every algorithm of the installed library
m <- kindred_fit(x, "rdpmeans", k = 3, seed = 1, pairs = pairs)      # options by name
print(table(m$cluster, iris$Species))                   # 1-based clusters
print(m$centers)                                        # k x d
print(predict(m, x[1:5, ]))                             # new points
kindred_save(m, f <- tempfile(fileext = ".kdm")); m2 <- kindred_load(f)
print(kindred_metric("ari", iris$Species, m2$cluster))
