x <- as.matrix(iris[, 1:4])
y <- iris$Species

test_that("the registry lists algorithms, options and metrics", {
  algs <- kindred_algorithms()
  expect_true("kmeans" %in% algs)
  for (a in algs) {
    info <- kindred_algorithm_info(a)
    expect_true(nchar(info$summary) > 0)
    o <- kindred_options(a)
    expect_true("seed" %in% o$name)
  }
  expect_true(all(c("nmi", "ari") %in% kindred_metrics()))
  expect_match(kindred_version(), "^[0-9]+\\.[0-9]+\\.[0-9]+$")
})

test_that("every algorithm fits, predicts where it can, and round-trips through a file", {
  for (a in kindred_algorithms()) {
    uses <- kindred_algorithm_info(a)$uses
    args <- list(x, a, seed = 2)
    if ("k" %in% kindred_options(a)$name) args$k <- 3
    if ("pairs" %in% uses) args$pairs <- kindred_sample_pairs(y, count = 60, seed = 1)
    if ("triplets" %in% uses) args$triplets <- kindred_sample_triplets(y, count = 200, seed = 1)
    if ("partial_labels" %in% uses) args$partial_labels <- ifelse(seq_along(y) %% 5 == 1, as.integer(y), NA)
    m <- do.call(kindred_fit, args)
    expect_length(m$cluster, nrow(x))
    for (arr in m$arrays) expect_true(all(is.finite(arr)))
    f <- tempfile(fileext = ".kdm")
    kindred_save(m, f)
    back <- kindred_load(f)
    expect_identical(back$cluster, m$cluster)
    expect_identical(back$arrays, m$arrays)
    unlink(f)
  }
})

test_that("kmeans finds iris, predicts, and does not depend on the storage mode", {
  m <- kindred_fit(x, "kmeans", k = 3, seed = 4)
  expect_gt(kindred_metric("ari", y, m$cluster), 0.6)
  expect_identical(predict(m, x), m$cluster)
  expect_equal(dim(m$centers), c(3L, 4L))
  xi <- round(x * 10)
  storage.mode(xi) <- "integer"
  xd <- xi
  storage.mode(xd) <- "double"
  expect_identical(kindred_fit(xi, "kmeans", k = 3, seed = 1)$cluster, kindred_fit(xd, "kmeans", k = 3, seed = 1)$cluster)
  expect_identical(kindred_fit(as.data.frame(x), "kmeans", k = 3L, seed = 4)$cluster, m$cluster)
  expect_output(print(m), "kmeans")
  if (capabilities("profmem")) {  # a double matrix reaches the library without being copied
    x2 <- x * 1
    tracemem(x2)
    expect_silent(kindred_fit(x2, "kmeans", k = 3, seed = 1))
    untracemem(x2)
  }
})

test_that("bad input is a kindred_error carrying the library's message", {
  expect_error(kindred_fit(x, "no-such-algorithm"), class = "kindred_error")
  e <- tryCatch(kindred_fit(x, "kmeans", kk = 3), error = function(e) e)
  expect_s3_class(e, "kindred_error")
  expect_match(conditionMessage(e), "kk")
  expect_error(kindred_fit(x, "kmeans", k = 0), class = "kindred_error")
  expect_error(kindred_fit(x, "kmeans", k = 2.5), class = "kindred_error")
  expect_error(kindred_fit(x, "kmeans", k = c(1, 2)), class = "kindred_error")
  expect_error(kindred_fit(x, "kmeans", 3), class = "kindred_error")
  xn <- x
  xn[6, 3] <- NA
  expect_error(kindred_fit(xn, "kmeans", k = 3), class = "kindred_error")
  e <- tryCatch(kindred_fit(x, "kmeans", k = 3, pairs = cbind(1, 151, 1)), error = function(e) e)
  expect_s3_class(e, "kindred_error")
  expect_match(conditionMessage(e), "150")
  expect_error(kindred_fit(x, "kmeans", k = 3, pairs = cbind(1.5, 2, 1)), class = "kindred_error")
  expect_error(kindred_fit(x, "kmeans", k = 3, pairs = cbind(1, 2)), class = "kindred_error")
  expect_error(kindred_fit(x, "kmeans", k = 3, partial_labels = 1:10), class = "kindred_error")
  expect_error(kindred_fit(letters, "kmeans"), class = "kindred_error")
  m <- kindred_fit(x, "kmeans", k = 3)
  expect_error(predict(m, x[, 1:2]), class = "kindred_error")
  expect_error(kindred_load(file.path(tempdir(), "missing.kdm")), class = "kindred_error")
  bad <- tempfile()
  writeLines("not a model", bad)
  expect_error(kindred_load(bad), class = "kindred_error")
  expect_error(kindred_metric("accuracy", 1:3, 1:3), class = "kindred_error")
  expect_error(kindred_array(m, "nothing"), class = "kindred_error")
})

test_that("progress callbacks report, cancel, and their errors come back", {
  seen <- integer()
  kindred_fit(x, "kmeans", k = 3, n_init = 1, progress = function(it, obj, msg) { seen <<- c(seen, it); FALSE })
  expect_true(length(seen) > 0 && seen[1] == 1)
  expect_error(kindred_fit(x, "kmeans", k = 3, progress = function(it, obj, msg) it >= 2), class = "kindred_error")
  expect_error(kindred_fit(x, "kmeans", k = 3, progress = function(it, obj, msg) stop("from the callback")),
               "from the callback")
  expect_s3_class(kindred_fit(x, "kmeans", k = 3, n_init = 1, progress = TRUE), "kindred_model")
  expect_length(kindred_fit(x, "kmeans", k = 3)$cluster, 150)
})

test_that("metrics and sampling", {
  expect_equal(kindred_metric("nmi", c(1, 1, 2, 2), c("a", "a", "b", "b")), 1)
  expect_equal(kindred_metric("rand", c(1, 1, 2, 2, 3, 3), rep(1, 6)), 3 / 15)
  p <- kindred_sample_pairs(y, count = 30, seed = 3)
  expect_identical(p, kindred_sample_pairs(y, count = 30, seed = 3))
  expect_equal(p$value, ifelse(y[p$i] == y[p$j], 1, -1))
  t <- kindred_sample_triplets(y, count = 20, seed = 2)
  expect_equal(nrow(t), 20)
  expect_true(all(t$answer %in% c(-1L, 0L, 1L)))
  expect_error(kindred_sample_pairs(y), class = "kindred_error")
})

test_that("active selection asks the oracle and returns pairs", {
  asked <- 0
  p <- kindred_active_select(x, function(i, j) { asked <<- asked + 1; y[i] == y[j] }, budget = 30, k = 3, seed = 1)
  expect_true(asked > 0 && asked <= 30)
  expect_true(all(p$i < p$j))
  expect_equal(p$value, ifelse(y[p$i] == y[p$j], 1, -1))
  expect_length(kindred_fit(x, "kmeans", k = 3, pairs = p)$cluster, 150)
  expect_error(kindred_active_select(x, function(i, j) 1, budget = 5, strategy = "psychic"), class = "kindred_error")
  expect_error(kindred_active_select(x, function(i, j) stop("from the oracle"), budget = 5, k = 3), "from the oracle")
  expect_error(kindred_active_select(x, function(i, j) 7, budget = 5, k = 3), "answer")
})
