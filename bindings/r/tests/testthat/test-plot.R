x <- as.matrix(iris[, 1:4])
y <- iris$Species

test_that("kindred_plot draws the clusters and returns the broken pairs", {
  m <- kindred_fit(x, "kmeans", k = 3, seed = 1)
  pairs <- kindred_sample_pairs(y, count = 60, seed = 3)
  f <- tempfile(fileext = ".pdf")
  grDevices::pdf(f)
  broken <- kindred_plot(x, m$cluster, pairs = pairs, main = "iris")
  kindred_plot(x, m$cluster, columns = c(3, 4))
  grDevices::dev.off()
  expect_true(file.info(f)$size > 1000)
  same <- m$cluster[pairs$i] == m$cluster[pairs$j]
  expect_equal(nrow(broken), sum((pairs$value > 0 & !same) | (pairs$value < 0 & same)))
  expect_true(nrow(broken) > 0)
})

test_that("kindred_learning_curve and kindred_plot_curve", {
  curve <- kindred_learning_curve(x, y, c("pckmeans", "kmeans"), counts = c(0, 30, 90), repeats = 2)
  expect_equal(curve$counts, c(0, 30, 90))
  expect_length(curve$algorithms$pckmeans$nmi$mean, 3)
  expect_length(curve$algorithms$kmeans$f_measure$std, 3)
  f <- tempfile(fileext = ".pdf")
  grDevices::pdf(f)
  kindred_plot_curve(curve)
  grDevices::dev.off()
  expect_true(file.info(f)$size > 1000)
})
