# What an R user expects beyond the basics: the library's words in every error, sparse input from the
# Matrix package, and the usual print / summary / predict / plot methods.
x <- as.matrix(iris[, 1:4])
y <- iris$Species

test_that("an error raised during a fit carries the library's message", {
  xn <- x
  xn[6, 3] <- NaN
  e <- tryCatch(kindred_fit(xn, "kmeans", k = 3), error = function(e) e)
  expect_s3_class(e, "kindred_error")
  expect_match(conditionMessage(e), "row 5, column 2 is NaN")   # the library counts from 0
  # hard constraints that cannot all hold: the message names the offending pair
  e <- tryCatch(kindred_fit(x, "copkmeans", k = 3, pairs = rbind(c(1, 2, 1), c(2, 3, 1), c(1, 3, -1))),
                error = function(e) e)
  expect_s3_class(e, "kindred_error")
  expect_true(nchar(conditionMessage(e)) > 10)
  e <- tryCatch(kindred_fit(x, "kmeans", k = 3, progress = function(it, obj, msg) TRUE), error = function(e) e)
  expect_s3_class(e, "kindred_cancelled")
  expect_true(nchar(conditionMessage(e)) > 0)
})

test_that("a dgCMatrix is clustered as the same dense matrix", {
  skip_if_not_installed("Matrix")
  xs <- Matrix::Matrix(x, sparse = TRUE)
  xs[xs < 1] <- 0
  xs <- methods::as(xs, "CsparseMatrix")
  expect_s4_class(xs, "dgCMatrix")
  xd <- as.matrix(xs)
  for (a in c("kmeans", "dpmeans")) {
    sparse <- kindred_fit(xs, a, k = 3, seed = 3)
    dense <- kindred_fit(xd, a, k = 3, seed = 3)
    expect_equal(sparse$cluster, dense$cluster)
    expect_equal(predict(sparse, xs[1:7, ]), predict(dense, xd[1:7, ]))
  }
  e <- tryCatch(kindred_fit(xs, "gmm", k = 3), error = function(e) e)   # gmm takes dense data only
  expect_s3_class(e, "kindred_error")
  expect_match(conditionMessage(e), "sparse")
})

test_that("print, summary, predict and plot behave as R's own methods", {
  m <- kindred_fit(x, "kmeans", k = 3, seed = 1)
  expect_output(print(m), "kmeans model: 150 points in 4 dimensions, 3 clusters")
  s <- summary(m)
  expect_s3_class(s, "summary.kindred_model")
  expect_equal(sum(s$sizes), 150)
  expect_equal(length(s$sizes), 3)
  expect_output(print(s), "cluster sizes")
  expect_identical(predict(m, x[10:20, ]), m$cluster[10:20])
  expect_identical(predict(m, as.data.frame(x[1:3, ])), m$cluster[1:3])
  f <- tempfile(fileext = ".pdf")
  grDevices::pdf(f)
  xy <- plot(m, x)
  grDevices::dev.off()
  expect_equal(dim(xy), c(150L, 2L))
  expect_equal(abs(xy[, 1]), abs(stats::prcomp(x)$x[, 1]), ignore_attr = TRUE)
  expect_true(file.size(f) > 1000)
  unlink(f)
  expect_error(plot(m), class = "kindred_error")
  expect_error(plot(m, x[1:10, ]), "150")
})
